import type { WritableEvent } from '@teamlog/events';
import type { StreamName } from '@teamlog/store';

interface JournalEntry {
  /** The revision of the first event. */
  readonly first: bigint;
  readonly events: readonly WritableEvent[];
}

/**
 * The last few batches this engine appended to each stream, so that another fold of the same stream
 * (the team's and the sender's folds of a Lead or member stream that also takes messages) catches
 * up from what was written instead of reading it back. Only a run of entries that covers exactly the
 * revisions a fold lacks is used; anything else is read from the store. Bounded: `streams` streams,
 * `perStream` batches each, least recently written out first.
 */
export class AppendJournal {
  private readonly entries = new Map<StreamName, JournalEntry[]>();

  constructor(
    private readonly streams: number,
    private readonly perStream = 8,
  ) {}

  record(stream: StreamName, first: bigint, events: readonly WritableEvent[]): void {
    const entries = this.entries.get(stream) ?? [];
    this.entries.delete(stream);
    entries.push({ first, events });
    if (entries.length > this.perStream) entries.shift();
    this.entries.set(stream, entries);
    if (this.entries.size > this.streams) this.entries.delete(this.entries.keys().next().value as StreamName);
  }

  /** The events at revisions after `after` up to and including `to`, when this journal holds every one of them. */
  between(
    stream: StreamName,
    after: bigint | undefined,
    to: bigint,
  ): Array<{ readonly revision: bigint; readonly event: WritableEvent }> | undefined {
    const entries = this.entries.get(stream);
    if (entries === undefined) return undefined;
    const found: Array<{ readonly revision: bigint; readonly event: WritableEvent }> = [];
    let next = after === undefined ? 0n : after + 1n;
    for (const entry of entries) {
      const last = entry.first + BigInt(entry.events.length) - 1n;
      if (last < next) continue;
      if (entry.first > next) return undefined;
      for (let revision = next; revision <= last && revision <= to; revision += 1n) {
        found.push({ revision, event: entry.events[Number(revision - entry.first)] as WritableEvent });
      }
      next = last + 1n;
      if (next > to) return found;
    }
    return undefined;
  }
}
