import { createWriteStream, promises as fs, WriteStream } from 'fs';
import { isLeft } from 'fp-ts/Either';
import { FormatVersion, SessionHeaderRecord, SessionId, decodeWith } from '@teamlog/events';
import { EventStore, RecordedEvent, sessionHeaderStream, sessionStream } from '@teamlog/store';
import { LogicalEvent } from './logical-event';
import { encodeBatch } from './physical-record-encoder';
import { Compression } from './session-file-name';
import { fromRecordedEvent } from './stored-event-codec';
import { readLatestHeader } from './stored-header';
import { encodeZstdFrame, initZstdEncoder } from './zstd-frame-encoder';

export interface ExportOptions {
  /** The file to write (written to a temporary name first, then renamed). */
  readonly file: string;
  readonly compression?: Compression;
  /** Events per write batch, i.e. per zstd frame (default 512). */
  readonly batchEvents?: number;
}

export interface ExportResult {
  readonly file: string;
  readonly sessionId: SessionId;
  readonly formatVersion: FormatVersion;
  readonly compression: Compression;
  readonly events: number;
  readonly bytes: number;
}

export class SessionNotExportable extends Error {
  override readonly name = 'SessionNotExportable';
  constructor(
    readonly sessionId: string,
    detail: string,
  ) {
    super(`session ${sessionId} cannot be exported: ${detail}`);
  }
}

const readHeaderRecord = async (store: EventStore, sessionId: SessionId): Promise<SessionHeaderRecord> => {
  const stream = sessionHeaderStream(sessionId);
  if ((await store.streamRevision(stream)) === undefined) throw new SessionNotExportable(sessionId, `it has no header (stream ${stream} is empty)`);
  // The latest record: a migrated log carries one per generation imported.
  const latest = await readLatestHeader(store, stream);
  const decoded = decodeWith(SessionHeaderRecord, 'data')(latest?.data);
  if (latest === undefined || isLeft(decoded)) throw new SessionNotExportable(sessionId, `its header record is unreadable${isLeft(decoded) ? ` (${decoded.left.message})` : ''}`);
  return decoded.right as SessionHeaderRecord;
};

const write = (out: WriteStream, bytes: Uint8Array): Promise<void> =>
  new Promise((resolve, reject) => {
    out.write(bytes, (error) => (error === null || error === undefined ? resolve() : reject(error)));
  });

const linesOf = (records: readonly unknown[]): Buffer => Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');

/**
 * Write a stored session back as a session log of its generation: the header from the header
 * stream, events with ranges re-compressed and (V0/V1) chunk runs re-packed, teamlog's own
 * events `ignorable`, a normalised fixture without seq/time. Raw JSONL, or zstd with one frame
 * for the header and one per batch. Streams: memory stays bounded by a batch.
 */
export const exportSession = async (store: EventStore, sessionId: SessionId, options: ExportOptions): Promise<ExportResult> => {
  const compression = options.compression ?? 'none';
  const batchEvents = options.batchEvents ?? 512;
  const record = await readHeaderRecord(store, sessionId);
  const normalised = record.normalised === true;
  if (compression === 'zstd') await initZstdEncoder();
  const encode = (content: Buffer): Uint8Array => (compression === 'zstd' ? encodeZstdFrame(content) : content);

  const temporary = `${options.file}.tmp-${process.pid}`;
  const out = createWriteStream(temporary);
  let bytes = 0;
  let events = 0;
  const emit = async (content: Buffer): Promise<void> => {
    const encoded = encode(content);
    bytes += encoded.length;
    await write(out, encoded);
  };
  try {
    await emit(linesOf([record.header]));
    const stream = sessionStream(sessionId);
    let batch: LogicalEvent[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      await emit(linesOf(encodeBatch(batch, record.formatVersion, normalised)));
      batch = [];
    };
    if ((await store.streamRevision(stream)) !== undefined) {
      for await (const recorded of store.readStream(stream)) {
        const event = fromRecordedEvent(recorded);
        if (isLeft(event)) throw new SessionNotExportable(sessionId, `event at seq ${recorded.revision}: ${event.left.message}`);
        batch.push(event.right);
        events += 1;
        // A packed run is not cut across batches: the source held it in one row.
        if (batch.length >= batchEvents && event.right.packed === undefined) await flush();
      }
    }
    await flush();
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    await fs.rename(temporary, options.file);
  } catch (error) {
    out.destroy();
    await fs.rm(temporary, { force: true });
    throw error;
  }
  return { file: options.file, sessionId, formatVersion: record.formatVersion, compression, events, bytes };
};
