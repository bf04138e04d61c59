import { isLeft } from 'fp-ts/Either';
import { WritableEvent } from '@teamlog/events';
import { Decider } from '@teamlog/domain';
import { AppendResult, EventStore, WrongExpectedVersion } from '@teamlog/store';
import { WriteContext, appendWritable } from './event-writer';
import { AppendJournal } from './append-journal';
import { FoldedStream } from './folded-stream';
import { ConcurrencyExhausted, SendAborted } from './team-log-errors';

export interface DecideAndAppend<C, E extends WritableEvent, S> {
  readonly store: EventStore;
  readonly folded: FoldedStream<S>;
  readonly decider: Decider<C, E, S>;
  readonly command: C;
  readonly write: WriteContext;
  readonly maxAttempts: number;
  /** Checked right before the append: once the append is issued, it is allowed to finish. */
  readonly signal?: AbortSignal;
  /** Told the state the events were decided on, before they are appended (and folded into it). */
  readonly decidedOn?: (state: S) => void;
  /** Where the engine keeps what it appended, for its other folds of the stream. */
  readonly journal?: AppendJournal;
}

/**
 * Load, decide, append with the revision the decision was made on; when another writer got there
 * first, read what it wrote and decide again. Returns what was appended (the state is caught up).
 */
export const decideAndAppend = async <C, E extends WritableEvent, S>(run: DecideAndAppend<C, E, S>): Promise<readonly E[]> => {
  const { store, folded } = run;
  for (let attempt = 1; attempt <= run.maxAttempts; attempt += 1) {
    await folded.catchUp(store, run.journal);
    const decision = run.decider.decide(run.command, folded.state);
    if (isLeft(decision)) throw decision.left;
    if (decision.right.length === 0) return [];
    if (run.signal?.aborted === true) throw new SendAborted(run.signal.reason);
    run.decidedOn?.(folded.state);
    let appended: AppendResult;
    try {
      appended = await appendWritable(store, folded.streamName, decision.right, folded.expectedRevision, run.write);
    } catch (error) {
      if (error instanceof WrongExpectedVersion) continue;
      throw error;
    }
    // The append held the expected revision, so the stream is exactly the state plus these events:
    // fold them here instead of reading back what was just written.
    folded.applyAppended(decision.right, appended.nextExpectedRevision);
    run.journal?.record(folded.streamName, appended.nextExpectedRevision - BigInt(decision.right.length) + 1n, decision.right);
    return decision.right;
  }
  throw new ConcurrencyExhausted(folded.streamName, run.maxAttempts);
};
