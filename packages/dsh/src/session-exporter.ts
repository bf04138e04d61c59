import { promises as fs, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { isLeft } from 'fp-ts/Either';
import { type FormatVersion, SessionHeaderRecord, type SessionId, decodeWith } from '@teamlog/events';
import { type EventStore, sessionHeaderStream, sessionStream } from '@teamlog/store';
import { exportTargetRefused, sessionNotExportable } from './export-errors';
import type { LogicalEvent } from './logical-event';
import { encodeBatch } from './physical-record-encoder';
import type { Compression } from './session-file-name';
import { importSupersededType } from './generation-supersession';
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

const readHeaderRecord = async (store: EventStore, sessionId: SessionId): Promise<SessionHeaderRecord> => {
  const stream = sessionHeaderStream(sessionId);
  if ((await store.streamRevision(stream)) === undefined)
    throw sessionNotExportable(sessionId, `it has no header (stream ${stream} is empty)`);
  // The latest record: a migrated log carries one per generation imported.
  const latest = await readLatestHeader(store, stream);
  const decoded = decodeWith(SessionHeaderRecord, 'data')(latest?.data);
  if (latest === undefined || isLeft(decoded))
    throw sessionNotExportable(
      sessionId,
      `its header record is unreadable${isLeft(decoded) ? ` (${decoded.left.message})` : ''}`,
    );
  return decoded.right as SessionHeaderRecord;
};

const kindOf = (stats: Stats): string =>
  stats.isDirectory()
    ? 'a directory'
    : stats.isSymbolicLink()
      ? 'a symbolic link'
      : stats.isFIFO()
        ? 'a FIFO'
        : stats.isCharacterDevice() || stats.isBlockDevice()
          ? 'a device'
          : stats.isSocket()
            ? 'a socket'
            : 'not a regular file';

/**
 * Export writes only a regular file it creates: the directory must exist, and whatever is at the
 * name already must be a regular file (which the rename replaces), never a link, FIFO or device.
 */
const checkTarget = async (file: string): Promise<void> => {
  const directory = dirname(file);
  const parent = await fs.stat(directory).catch(() => undefined);
  if (parent === undefined) throw exportTargetRefused(file, `the directory ${directory} does not exist`);
  if (!parent.isDirectory()) throw exportTargetRefused(file, `${directory} is not a directory`);
  const existing = await fs.lstat(file).catch(() => undefined);
  if (existing !== undefined && !existing.isFile())
    throw exportTargetRefused(file, `it is ${kindOf(existing)}; export writes only a regular file`);
};

/** Whether a stored session's events came from a normalised fixture (each carries the flag; the header may not know). */
const eventsNormalised = async (store: EventStore, sessionId: SessionId): Promise<boolean> => {
  const stream = sessionStream(sessionId);
  if ((await store.streamRevision(stream)) === undefined) return false;
  for await (const event of store.readStream(stream, { maxCount: 1 })) {
    const metadata = event.metadata;
    return (
      typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && metadata.normalised === true
    );
  }
  return false;
};

const linesOf = (records: readonly unknown[]): Buffer =>
  Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');

/**
 * Write a stored session back as a session log of its generation: the header from the header
 * stream, events with ranges re-compressed and (V0/V1) chunk runs re-packed, teamlog's own
 * events `ignorable`, a normalised fixture without seq/time. Raw JSONL, or zstd with one frame
 * for the header and one per batch. Streams: memory stays bounded by a batch. A superseded
 * session is written as its last generation alone: the events after the last
 * `teamlog/import/superseded`, under that generation's header.
 */
export const exportSession = async (
  store: EventStore,
  sessionId: SessionId,
  options: ExportOptions,
): Promise<ExportResult> => {
  const compression = options.compression ?? 'none';
  const batchEvents = options.batchEvents ?? 512;
  const record = await readHeaderRecord(store, sessionId);
  const normalised = record.normalised === true || (await eventsNormalised(store, sessionId));
  await checkTarget(options.file);
  if (compression === 'zstd') await initZstdEncoder();
  const encode = (content: Buffer): Uint8Array => (compression === 'zstd' ? encodeZstdFrame(content) : content);

  const temporary = `${options.file}.tmp-${process.pid}-${Date.now().toString(36)}`;
  // 'wx': created here, never an existing file or link followed to somewhere else.
  const out = await fs.open(temporary, 'wx').catch((error: NodeJS.ErrnoException) => {
    throw exportTargetRefused(options.file, `cannot create ${temporary} (${error.code ?? error.message})`);
  });
  let bytes = 0;
  let events = 0;
  // Written at explicit positions, so that a supersession record can cut what was written back to the header.
  const emit = async (content: Buffer): Promise<void> => {
    const encoded = encode(content);
    await out.write(encoded, 0, encoded.length, bytes);
    bytes += encoded.length;
  };
  try {
    await emit(linesOf([record.header]));
    const headerBytes = bytes;
    const stream = sessionStream(sessionId);
    let batch: LogicalEvent[] = [];
    let base = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      await emit(linesOf(encodeBatch(batch, record.formatVersion, normalised)));
      batch = [];
    };
    if ((await store.streamRevision(stream)) !== undefined) {
      for await (const recorded of store.readStream(stream)) {
        if (recorded.type === importSupersededType) {
          // A later generation superseded what came before: the log is its events alone, seq 0 after
          // the record, as a one-shot replay of its file stores it (docs/rules.md#import-superseded).
          await out.truncate(headerBytes);
          bytes = headerBytes;
          batch = [];
          events = 0;
          base = Number(recorded.revision) + 1;
          continue;
        }
        const event = fromRecordedEvent(recorded, base);
        if (isLeft(event))
          throw sessionNotExportable(
            sessionId,
            `event at seq ${Number(recorded.revision) - base}: ${event.left.message}`,
          );
        batch.push(event.right);
        events += 1;
        // A packed run is not cut across batches: the source held it in one row.
        if (batch.length >= batchEvents && event.right.packed === undefined) await flush();
      }
    }
    await flush();
    await out.sync();
    await out.close();
    await checkTarget(options.file);
    await fs.rename(temporary, options.file);
  } catch (error) {
    await out.close().catch(() => undefined);
    await fs.rm(temporary, { force: true });
    throw error;
  }
  return { file: options.file, sessionId, formatVersion: record.formatVersion, compression, events, bytes };
};
