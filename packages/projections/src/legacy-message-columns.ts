import type { LegacyDelivery, MessageId, SessionId } from '@teamlog/events';
import type { LegacyMailboxColumns, LegacyMessageEntry } from '@teamlog/domain';

const noContent: readonly never[] = Object.freeze([]);

/** `deliveredSeqs` of a message not delivered (seqs count from 0). */
const undelivered = -1;

/**
 * The legacy mailbox of a Team whose views are read once (a one-shot replay): one column per field
 * the replay document and the audit read, a message's index by its id, and no object per message
 * (a big Lead log queues over a hundred thousand). Its content is not kept (nothing read once prints
 * it). Read as a Map, an entry is made when asked for; the Team fold writes through
 * LegacyMailboxColumns, and `set` keeps the Map's meaning for any other writer.
 */
export class LegacyMessageColumns implements Map<MessageId, LegacyMessageEntry>, LegacyMailboxColumns {
  readonly ids: (MessageId | undefined)[] = [];
  readonly senderIds: SessionId[] = [];
  readonly senderNames: string[] = [];
  readonly targetIds: SessionId[] = [];
  readonly deliveries: (LegacyDelivery | undefined)[] = [];
  readonly versions: (1 | 2)[] = [];
  readonly queuedSeqs: number[] = [];
  readonly deliveredSeqs: number[] = [];
  private readonly index = new Map<MessageId, number>();
  /** One string per sender name: each parsed line brings its own copy of the same few names. */
  private readonly names = new Map<string, string>();

  get size(): number {
    return this.index.size;
  }

  get [Symbol.toStringTag](): string {
    return 'LegacyMessageColumns';
  }

  indexOf(id: MessageId): number {
    return this.index.get(id) ?? -1;
  }

  targetAt(index: number): SessionId {
    return this.targetIds[index] as SessionId;
  }

  isDeliveredAt(index: number): boolean {
    return this.deliveredSeqs[index] !== undelivered;
  }

  /** The delivery's seq, or undefined. */
  deliveredSeqAt(index: number): number | undefined {
    const seq = this.deliveredSeqs[index] as number;
    return seq === undelivered ? undefined : seq;
  }

  queue(
    message: LegacyMessageEntry['message'],
    senderId: SessionId,
    targetId: SessionId,
    sourceVersion: 1 | 2,
    seq: number,
  ): void {
    this.index.set(message.id, this.ids.length);
    this.ids.push(message.id);
    this.senderIds.push(senderId);
    this.senderNames.push(this.heldName(message.senderName));
    this.targetIds.push(targetId);
    this.deliveries.push(message.delivery);
    this.versions.push(sourceVersion);
    this.queuedSeqs.push(seq);
    this.deliveredSeqs.push(undelivered);
  }

  deliverAt(index: number, seq: number): void {
    this.deliveredSeqs[index] = seq;
  }

  /** The entry as a Map of entries holds it, without its content. */
  entryAt(index: number): LegacyMessageEntry {
    const delivery = this.deliveries[index];
    const message = {
      id: this.ids[index] as MessageId,
      senderId: this.senderIds[index] as SessionId,
      senderName: this.senderNames[index] as string,
      targetId: this.targetIds[index] as SessionId,
      content: noContent,
      ...(delivery === undefined ? {} : { delivery }),
    };
    return {
      message,
      sourceVersion: this.versions[index] as 1 | 2,
      queuedSeq: this.queuedSeqs[index] as number,
      deliveredSeq: this.deliveredSeqAt(index),
    };
  }

  get(id: MessageId): LegacyMessageEntry | undefined {
    const index = this.index.get(id);
    return index === undefined ? undefined : this.entryAt(index);
  }

  has(id: MessageId): boolean {
    return this.index.has(id);
  }

  set(id: MessageId, entry: LegacyMessageEntry): this {
    const index = this.index.get(id);
    if (index !== undefined) this.ids[index] = undefined;
    const { message } = entry;
    this.queue({ ...message, id }, message.senderId, message.targetId, entry.sourceVersion, entry.queuedSeq);
    if (entry.deliveredSeq !== undefined) this.deliverAt(this.ids.length - 1, entry.deliveredSeq);
    if (index !== undefined) this.moveToOldPlace(index);
    return this;
  }

  delete(id: MessageId): boolean {
    const index = this.index.get(id);
    if (index === undefined) return false;
    this.index.delete(id);
    this.ids[index] = undefined;
    return true;
  }

  clear(): void {
    this.index.clear();
    for (const column of this.columns()) column.length = 0;
  }

  forEach(
    callback: (value: LegacyMessageEntry, key: MessageId, map: Map<MessageId, LegacyMessageEntry>) => void,
    thisArg?: unknown,
  ): void {
    for (const [id, entry] of this.entries()) callback.call(thisArg, entry, id, this);
  }

  *entries(): MapIterator<[MessageId, LegacyMessageEntry]> {
    for (let index = 0; index < this.ids.length; index += 1) {
      const id = this.ids[index];
      if (id !== undefined) yield [id, this.entryAt(index)];
    }
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

  /**
   * A Map keeps a key set again where it was first inserted: the row just pushed for it moves back
   * to the key's old index.
   */
  private moveToOldPlace(index: number): void {
    const last = this.ids.length - 1;
    for (const column of this.columns()) {
      column[index] = column[last];
      column.length = last;
    }
    this.index.set(this.ids[index] as MessageId, index);
  }

  private columns(): unknown[][] {
    return [
      this.ids,
      this.senderIds,
      this.senderNames,
      this.targetIds,
      this.deliveries,
      this.versions,
      this.queuedSeqs,
      this.deliveredSeqs,
    ];
  }
}
