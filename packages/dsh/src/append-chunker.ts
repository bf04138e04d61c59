import { createHash, Hash } from 'crypto';
import { EventToAppend } from '@teamlog/store';

export interface ChunkLimits {
  readonly batchEvents: number;
  readonly batchBytes: number;
}

/**
 * Cuts the events to append into chunks (by count and serialised size) and fingerprints each
 * chunk. The validation pass records the fingerprints; the writing pass cuts the same chunks from
 * a second read and refuses to append one whose fingerprint differs (the file changed between
 * the passes), so nothing is written that was not validated.
 */
export class AppendChunker {
  private events: EventToAppend[] = [];
  private bytes = 0;
  private hash: Hash = createHash('sha256');

  constructor(private readonly limits: ChunkLimits) {}

  /** Add an event; returns the finished chunk when this event completes one. */
  add(event: EventToAppend): { readonly events: readonly EventToAppend[]; readonly digest: string } | undefined {
    const serialised = JSON.stringify([event.id, event.type, event.data, event.metadata ?? null]);
    this.hash.update(serialised);
    this.events.push(event);
    this.bytes += serialised.length;
    return this.events.length >= this.limits.batchEvents || this.bytes >= this.limits.batchBytes ? this.cut() : undefined;
  }

  /** The last, partial chunk (if any). */
  finish(): { readonly events: readonly EventToAppend[]; readonly digest: string } | undefined {
    return this.events.length === 0 ? undefined : this.cut();
  }

  private cut(): { readonly events: readonly EventToAppend[]; readonly digest: string } {
    const chunk = { events: this.events, digest: this.hash.digest('hex') };
    this.events = [];
    this.bytes = 0;
    this.hash = createHash('sha256');
    return chunk;
  }
}
