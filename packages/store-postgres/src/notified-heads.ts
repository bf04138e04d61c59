import type { KnownRevision, StreamName } from '@teamlog/store';

/** Stream heads kept at most this many (least recently confirmed out first); a stream that fell out is read again. */
const maxHeads = 10_000;

/**
 * The stream heads a PostgreSQL store may answer `knownRevision` with, without a read round trip.
 * A head is confirmed by this store's own commit or read, and forgotten when another writer's
 * append notification names its stream (or names no streams, or the LISTEN connection was down).
 * A confirmation is only taken when no notification for its stream arrived while the commit or
 * read was in flight (`since`), so a late answer never overwrites a newer foreign write. Another
 * host's commit is seen once its notification arrives, and a notification that never arrives (its
 * writer died right after committing) is covered by the trust window: a head not confirmed again
 * within it is read again. Appends keep their expected-revision check, so a head that lags only
 * costs a retry.
 */
export class NotifiedHeads {
  private readonly heads = new Map<StreamName, { readonly revision: bigint | undefined; readonly at: number }>();
  /** Counts foreign notifications; an operation remembers the count it started at. */
  private epoch = 0;
  private readonly changedAt = new Map<StreamName, number>();
  /** The last epoch at which every head became unknown (no streams named, LISTEN down or reconnected). */
  private allChangedAt = 0;
  private listening = false;

  constructor(
    private readonly trustWindowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Where an operation starts: pass it to `confirm` when the operation's answer arrives. */
  mark(): number {
    return this.epoch;
  }

  /** The stream's head as of `since` (own commit or read); kept unless another writer was notified meanwhile. */
  confirm(stream: StreamName, revision: bigint | undefined, since: number): void {
    if (!this.listening || this.allChangedAt > since || (this.changedAt.get(stream) ?? 0) > since) return;
    this.heads.delete(stream);
    this.heads.set(stream, { revision, at: this.now() });
    if (this.heads.size > maxHeads) this.heads.delete(this.heads.keys().next().value as StreamName);
  }

  get(stream: StreamName): KnownRevision | undefined {
    if (!this.listening) return undefined;
    const head = this.heads.get(stream);
    if (head === undefined) return undefined;
    if (this.now() - head.at > this.trustWindowMs) {
      this.heads.delete(stream);
      return undefined;
    }
    return { revision: head.revision };
  }

  /** Another writer appended to these streams (undefined: to streams it did not name). */
  changedElsewhere(streams: readonly StreamName[] | undefined): void {
    this.epoch += 1;
    if (streams === undefined) {
      this.forgetAll();
      return;
    }
    for (const stream of streams) {
      this.heads.delete(stream);
      this.changedAt.set(stream, this.epoch);
    }
    // Only operations in flight compare with these marks; past the bound, forgetting all is as safe.
    if (this.changedAt.size > maxHeads) this.forgetAll();
  }

  /** Whether the LISTEN connection is up: while it is not, nothing is trusted. */
  listeningChanged(listening: boolean): void {
    this.epoch += 1;
    this.listening = listening;
    this.forgetAll();
  }

  private forgetAll(): void {
    this.heads.clear();
    this.changedAt.clear();
    this.allChangedAt = this.epoch;
  }
}

/** The notification payload: the transaction id, then the streams it appended to (JSON), when they fit. */
export const appendedPayload = (transaction: bigint, streams: readonly StreamName[]): string => {
  const named = `${transaction} ${JSON.stringify(streams)}`;
  // PostgreSQL refuses a payload of 8000 bytes or more; without names every listener forgets every head.
  return Buffer.byteLength(named, 'utf8') < 7900 ? named : transaction.toString();
};

/** Parse a notification payload: its transaction id and named streams (undefined when it names none or is not ours). */
export const parseAppendedPayload = (
  payload: string,
): { readonly transaction: bigint | undefined; readonly streams: readonly StreamName[] | undefined } => {
  const space = payload.indexOf(' ');
  const head = space < 0 ? payload : payload.slice(0, space);
  const transaction = /^\d+$/.test(head) ? BigInt(head) : undefined;
  if (transaction === undefined || space < 0) return { transaction, streams: undefined };
  try {
    const streams: unknown = JSON.parse(payload.slice(space + 1));
    return {
      transaction,
      streams:
        Array.isArray(streams) && streams.every((stream) => typeof stream === 'string')
          ? (streams as StreamName[])
          : undefined,
    };
  } catch {
    return { transaction, streams: undefined };
  }
};
