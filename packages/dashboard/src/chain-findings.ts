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
import { eventPath } from './event-document';

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

const eventUrlOf = (found: ChainBreak): { sessionId?: SessionId; eventUrl?: string } => {
  const header = sessionIdOfHeaderStream(found.streamName);
  const session = header ?? sessionIdOfStream(found.streamName);
  if (session === undefined) return {};
  const shown = found.code !== 'chain-event-removed';
  return {
    sessionId: session,
    ...(shown ? { eventUrl: eventPath(session, header === undefined ? Number(found.revision) : -1) } : {}),
  };
};

export const chainRow = (found: ChainBreak): ChainRow => ({
  code: found.code,
  streamName: found.streamName,
  revision: found.revision.toString(),
  detail: found.detail,
  explanation: chainBreakExplanations[found.code],
  ...eventUrlOf(found),
});

export const chainFindingsAnswer = (audit: ChainAudit): ChainFindingsAnswer => ({
  checked: audit.checked,
  streams: audit.streams,
  events: audit.events,
  findings: audit.breaks.map(chainRow),
});

/**
 * The hash chains recomputed from the stored bytes, as `teamlog audit` does: a read of every
 * stored event, so one walk runs at a time and the requests that arrive meanwhile share its
 * answer. It is not kept past that walk: the bytes can change without the views moving on (a file
 * edited under the store), so the next request walks again.
 */
export class ChainFindings {
  private running: Promise<ChainFindingsAnswer> | undefined;

  constructor(private readonly store: EventStore) {}

  read(): Promise<ChainFindingsAnswer> {
    if (this.running !== undefined) return this.running;
    const walk = auditChains(this.store).then(chainFindingsAnswer);
    this.running = walk;
    const done = () => {
      if (this.running === walk) this.running = undefined;
    };
    walk.then(done, done);
    return walk;
  }
}
