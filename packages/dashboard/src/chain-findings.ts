import type { SessionId } from '@teamlog/events';
import {
  type ChainAudit,
  type ChainBreak,
  type ChainBreakCode,
  type EventStore,
  auditChains,
  chainBreakExplanations,
  sessionIdOfHeaderStream,
  sessionIdOfStream,
} from '@teamlog/store';
import { type SeqBase, eventPath } from './event-document';

/** One stream's first chain break as the audit panel shows it (docs/trust-boundary.md). */
export interface ChainRow {
  readonly code: ChainBreakCode;
  readonly streamName: string;
  /** A bigint, as text. */
  readonly revision: string;
  readonly detail: string;
  /** What the code means, in one sentence. */
  readonly explanation: string;
  /** The session whose stream (or header stream) it is, when it is one. */
  readonly sessionId?: SessionId;
  /** The stored event that shows it: a session's event that is still there (not a removed one). */
  readonly eventUrl?: string;
}

/** The chains the store keeps: whether it keeps any, how much was checked, and each stream's first break. */
export interface ChainFindingsAnswer {
  readonly checked: boolean;
  readonly streams: number;
  readonly events: number;
  readonly findings: readonly ChainRow[];
}

const eventUrlOf = (found: ChainBreak, baseOf: SeqBase): { sessionId?: SessionId; eventUrl?: string } => {
  const header = sessionIdOfHeaderStream(found.streamName);
  const session = header ?? sessionIdOfStream(found.streamName);
  if (session === undefined) return {};
  // A superseded session's seqs count from its last generation: an earlier one's event has none to link.
  const seq = header === undefined ? Number(found.revision) - baseOf(session) : -1;
  const shown = found.code !== 'chain-event-removed' && seq >= -1;
  return { sessionId: session, ...(shown ? { eventUrl: eventPath(session, seq) } : {}) };
};

export const chainRow = (found: ChainBreak, baseOf: SeqBase = () => 0): ChainRow => ({
  code: found.code,
  streamName: found.streamName,
  revision: found.revision.toString(),
  detail: found.detail,
  explanation: chainBreakExplanations[found.code],
  ...eventUrlOf(found, baseOf),
});

export const chainFindingsAnswer = (audit: ChainAudit, baseOf: SeqBase = () => 0): ChainFindingsAnswer => ({
  checked: audit.checked,
  streams: audit.streams,
  events: audit.events,
  findings: audit.breaks.map((found) => chainRow(found, baseOf)),
});

/**
 * The hash chains recomputed from the stored bytes, as `teamlog audit` does: a read of every
 * stored event, so one walk runs at a time and the requests that arrive meanwhile share its
 * answer. It is not kept past that walk: the bytes can change without the views moving on (a file
 * edited under the store), so the next request walks again.
 */
export class ChainFindings {
  private running: Promise<ChainAudit> | undefined;

  constructor(private readonly store: EventStore) {}

  /** `baseOf`: where each session's seqs start, so a break links the event at its seq (event-document.ts). */
  read(baseOf: SeqBase = () => 0): Promise<ChainFindingsAnswer> {
    return this.walk().then((audit) => chainFindingsAnswer(audit, baseOf));
  }

  private walk(): Promise<ChainAudit> {
    if (this.running !== undefined) return this.running;
    const walk = auditChains(this.store);
    this.running = walk;
    const done = () => {
      if (this.running === walk) this.running = undefined;
    };
    walk.then(done, done);
    return walk;
  }
}
