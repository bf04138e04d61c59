import type { LegacyDelivery, MessageId, SessionId } from '@teamlog/events';
import type { LegacyMailboxColumns, LegacyMessageEntry } from '@teamlog/domain';
import { MessageIdIndex } from './message-id-index';

const noContent: readonly never[] = Object.freeze([]);

/** `deliveredSeqs` of a message not delivered (seqs count from 0). */
const undelivered = -1;

/** A queued message as the replay document and the audit read it: its fields, its session ids the Team's own strings. */
export interface QueuedMessageRow {
  readonly id: MessageId;
  readonly senderId: SessionId;
  readonly senderName: string;
  readonly targetId: SessionId;
  readonly delivery: LegacyDelivery | undefined;
  readonly sourceVersion: 1 | 2;
  readonly queuedSeq: number;
  /** `undelivered` (-1) until delivered: a number from the start, so a delivery does not reshape the row. */
  deliveredSeq: number;
}

/**
 * The legacy mailbox of a Team whose views are read once (a one-shot replay): one compact row per
 * message of the fields the replay document and the audit read, in queue order, and a message's
 * index by its id. It keeps neither the parsed payload nor its content (nothing read once prints
 * it). Read as a Map, an entry is made when asked for; the Team fold writes through
 * LegacyMailboxColumns, and `set` keeps the Map's meaning for any other writer.
 */
export class LegacyMessageColumns implements Map<MessageId, LegacyMessageEntry>, LegacyMailboxColumns {
  /** In queue order; a deleted message leaves `undefined`. */
  readonly rows: (QueuedMessageRow | undefined)[] = [];
  private readonly index = new MessageIdIndex((row) => (this.rows[row] as QueuedMessageRow).id);
  /** One string per sender name: each parsed line brings its own copy of the same few names. */
  private readonly names = new Map<string, string>();

  get size(): number {
    return this.index.size;
  }

  get [Symbol.toStringTag](): string {
    return 'LegacyMessageColumns';
  }

  indexOf(id: MessageId): number {
    return this.index.get(id);
  }

  targetAt(index: number): SessionId {
    return (this.rows[index] as QueuedMessageRow).targetId;
  }

  isDeliveredAt(index: number): boolean {
    return (this.rows[index] as QueuedMessageRow).deliveredSeq !== undelivered;
  }

  queue(
    message: LegacyMessageEntry['message'],
    senderId: SessionId,
    targetId: SessionId,
    sourceVersion: 1 | 2,
    seq: number,
  ): boolean {
    if (!this.index.add(message.id, this.rows.length)) return false;
    this.rows.push({
      id: message.id,
      senderId,
      senderName: this.heldName(message.senderName),
      targetId,
      delivery: message.delivery,
      sourceVersion,
      queuedSeq: seq,
      deliveredSeq: undelivered,
    });
    return true;
  }

  deliverAt(index: number, seq: number): void {
    (this.rows[index] as QueuedMessageRow).deliveredSeq = seq;
  }

  get(id: MessageId): LegacyMessageEntry | undefined {
    const index = this.index.get(id);
    return index === -1 ? undefined : entryOf(this.rows[index] as QueuedMessageRow);
  }

  has(id: MessageId): boolean {
    return this.index.get(id) !== -1;
  }

  set(id: MessageId, entry: LegacyMessageEntry): this {
    const { message } = entry;
    const index = this.index.get(id);
    if (index === -1)
      this.queue({ ...message, id }, message.senderId, message.targetId, entry.sourceVersion, entry.queuedSeq);
    else
      this.rows[index] = {
        id,
        senderId: message.senderId,
        senderName: message.senderName,
        targetId: message.targetId,
        delivery: message.delivery,
        sourceVersion: entry.sourceVersion,
        queuedSeq: entry.queuedSeq,
        deliveredSeq: undelivered,
      };
    if (entry.deliveredSeq !== undefined) this.deliverAt(this.index.get(id), entry.deliveredSeq);
    return this;
  }

  delete(id: MessageId): boolean {
    const index = this.index.get(id);
    if (index === -1) return false;
    this.index.delete(id);
    this.rows[index] = undefined;
    return true;
  }

  clear(): void {
    this.index.clear();
    this.rows.length = 0;
  }

  forEach(
    callback: (value: LegacyMessageEntry, key: MessageId, map: Map<MessageId, LegacyMessageEntry>) => void,
    thisArg?: unknown,
  ): void {
    for (const [id, entry] of this.entries()) callback.call(thisArg, entry, id, this);
  }

  *entries(): MapIterator<[MessageId, LegacyMessageEntry]> {
    for (const row of this.rows) if (row !== undefined) yield [row.id, entryOf(row)];
  }

  *keys(): MapIterator<MessageId> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): MapIterator<LegacyMessageEntry> {
    for (const [, entry] of this.entries()) yield entry;
  }

  [Symbol.iterator](): MapIterator<[MessageId, LegacyMessageEntry]> {
    return this.entries();
  }

  private heldName(name: string): string {
    const held = this.names.get(name);
    if (held !== undefined) return held;
    this.names.set(name, name);
    return name;
  }
}

/** The delivery's seq of a row, or undefined. */
export const deliveredSeqOf = (row: QueuedMessageRow): number | undefined =>
  row.deliveredSeq === undelivered ? undefined : row.deliveredSeq;

/** The entry a Map of entries holds for the row, without its content. */
const entryOf = (row: QueuedMessageRow): LegacyMessageEntry => ({
  message: {
    id: row.id,
    senderId: row.senderId,
    senderName: row.senderName,
    targetId: row.targetId,
    content: noContent,
    ...(row.delivery === undefined ? {} : { delivery: row.delivery }),
  },
  sourceVersion: row.sourceVersion,
  queuedSeq: row.queuedSeq,
  deliveredSeq: deliveredSeqOf(row),
});
