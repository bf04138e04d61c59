/*
 * A batch of staged rows as one ArrayBuffer, so it crosses to the writer thread by transfer
 * (no copy, no structured clone of event objects). Layout: a u32 row count, then per row four i32
 * byte lengths (id, type, data, metadata; -1 for no metadata) and those UTF-8 bytes.
 */

/** One staged row: event id, type, data text, metadata text (null when the event has none). */
export type StagedRow = readonly [id: string, type: string, data: string, metadata: string | null];

const encoder = new TextEncoder();
const headerBytes = 4;
const lengthsBytes = 16;

/** A growable byte buffer that strings are UTF-8 encoded into in place. */
class ByteWriter {
  private bytes: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
    this.view = new DataView(this.bytes.buffer);
  }

  private reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + more));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  int32(value: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, value, true);
    this.length += 4;
  }

  setInt32(at: number, value: number): void {
    this.view.setInt32(at, value, true);
  }

  /** The string's UTF-8 bytes; returns how many were written. */
  text(value: string): number {
    // A UTF-16 unit takes at most three UTF-8 bytes.
    this.reserve(value.length * 3);
    const { written } = encoder.encodeInto(value, this.bytes.subarray(this.length));
    this.length += written;
    return written;
  }

  /** The written bytes as an ArrayBuffer of their own (what is transferred). */
  finish(): ArrayBuffer {
    // Allocated here as a plain ArrayBuffer (never shared).
    const buffer = this.bytes.buffer as ArrayBuffer;
    return buffer.byteLength === this.length ? buffer : buffer.slice(0, this.length);
  }
}

/** The rows packed into one buffer, in order. */
export const packStagedRows = (rows: readonly StagedRow[]): ArrayBuffer => {
  let estimate = headerBytes;
  for (const [id, type, data, metadata] of rows)
    estimate += lengthsBytes + id.length + type.length + data.length + (metadata?.length ?? 0);
  const writer = new ByteWriter(Math.ceil(estimate * 1.1) + 64);
  writer.int32(rows.length);
  for (const [id, type, data, metadata] of rows) {
    const at = writer.length;
    writer.int32(0);
    writer.int32(0);
    writer.int32(0);
    writer.int32(0);
    writer.setInt32(at, writer.text(id));
    writer.setInt32(at + 4, writer.text(type));
    writer.setInt32(at + 8, writer.text(data));
    writer.setInt32(at + 12, metadata === null ? -1 : writer.text(metadata));
  }
  return writer.finish();
};

/** The rows a buffer of packStagedRows holds, in order. */
export const unpackStagedRows = (buffer: ArrayBuffer): StagedRow[] => {
  const bytes = Buffer.from(buffer);
  const view = new DataView(buffer);
  const count = view.getUint32(0, true);
  const rows: StagedRow[] = [];
  let at = headerBytes;
  const textOf = (length: number): string => {
    const value = bytes.toString('utf8', at, at + length);
    at += length;
    return value;
  };
  for (let row = 0; row < count; row += 1) {
    const idLength = view.getInt32(at, true);
    const typeLength = view.getInt32(at + 4, true);
    const dataLength = view.getInt32(at + 8, true);
    const metadataLength = view.getInt32(at + 12, true);
    at += lengthsBytes;
    const id = textOf(idLength);
    const type = textOf(typeLength);
    const data = textOf(dataLength);
    rows.push([id, type, data, metadataLength < 0 ? null : textOf(metadataLength)]);
  }
  return rows;
};
