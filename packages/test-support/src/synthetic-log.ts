import { createWriteStream, type WriteStream } from 'node:fs';
import { type Compression, encodeZstdFrame, initZstdEncoder } from '@teamlog/dsh';
import type { JsonObject } from '@teamlog/events';

export interface SyntheticLogOptions {
  readonly file: string;
  /** Stop after the first turn that brings the file to at least this many (uncompressed) bytes. */
  readonly targetBytes: number;
  /**
   * The generation's layout as its writers laid it out: V0 and V1 write packed chunk rows and a
   * `seedLength` header; V2 on, one event per line and `isSeeded`; V3, a `system/message` at the
   * first step (so a V2 log migrated to V3 renumbers); V4, tool results as `role: "tool"` messages.
   */
  readonly formatVersion?: 0 | 1 | 2 | 3 | 4;
  readonly compression?: Compression;
  readonly sessionId?: string;
  /** Also write one `user/message` this large (bytes of text) in the first turn. */
  readonly largeLineBytes?: number;
  /** Uncompressed bytes per write batch (one zstd frame per batch); default 1 MiB. */
  readonly batchBytes?: number;
}

export interface SyntheticLogResult {
  readonly file: string;
  readonly sessionId: string;
  /** Uncompressed bytes (the JSONL text). */
  readonly bytes: number;
  /** Bytes on disk (smaller than `bytes` when zstd). */
  readonly fileBytes: number;
  /** Logical events (packed rows expanded). */
  readonly events: number;
  readonly lines: number;
}

const words = ['alpha', 'beta', 'gamma', 'delta', 'session', 'team', 'log', 'event', 'stream', 'reader'];

/** Deterministic text: the same options always give the same file. */
const textOf = (seed: number, count: number): string[] =>
  Array.from({ length: count }, (_, k) => `${words[(seed + k * 7) % words.length]} `);

const write = (out: WriteStream, bytes: Uint8Array): Promise<void> =>
  new Promise((resolve, reject) =>
    out.write(bytes, (error) => (error === null || error === undefined ? resolve() : reject(error))),
  );

/**
 * Write a valid session log of about `targetBytes` without holding it in memory: turns of
 * user message, streamed assistant chunks (packed rows in V0), a tool call and its result. For
 * the tests and for the benchmark that replays a large log (e.g. 1 GB) and reports the reader's peak RSS.
 */
export const generateSyntheticLog = async (options: SyntheticLogOptions): Promise<SyntheticLogResult> => {
  const formatVersion = options.formatVersion ?? 0;
  const compression = options.compression ?? 'none';
  const sessionId = options.sessionId ?? 'synthetic-0000-4000-8000-000000000001';
  const batchBytes = options.batchBytes ?? 1024 * 1024;
  if (compression === 'zstd') await initZstdEncoder();
  const out = createWriteStream(options.file);
  let pending: string[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let fileBytes = 0;
  let lines = 0;
  let seq = 0;
  let time = 1785000000000;

  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const content = Buffer.from(pending.join(''), 'utf8');
    const encoded = compression === 'zstd' ? encodeZstdFrame(content) : content;
    fileBytes += encoded.length;
    pending = [];
    pendingBytes = 0;
    await write(out, encoded);
  };
  const line = async (record: JsonObject): Promise<void> => {
    const text = `${JSON.stringify(record)}\n`;
    pending.push(text);
    pendingBytes += text.length;
    bytes += Buffer.byteLength(text);
    lines += 1;
    if (pendingBytes >= batchBytes) await flush();
  };
  const event = async (type: string, data: JsonObject, envelope: JsonObject = {}): Promise<number> => {
    time += 3;
    const own = seq;
    await line({ type, seq: own, time, data, ...envelope });
    seq += 1;
    return own;
  };

  const packed = formatVersion <= 1;
  const header: JsonObject = packed
    ? { type: 'session', version: formatVersion, id: sessionId, createdAt: time, cwd: '/synthetic', delegationDepth: 0 }
    : {
        type: 'session',
        version: formatVersion,
        id: sessionId,
        createdAt: time,
        cwd: '/synthetic',
        isSeeded: false,
        delegationDepth: 0,
      };
  await line(header);
  // The first batch holds only the header, as the writer's first frame does.
  await flush();

  for (let turn = 1; bytes < options.targetBytes; turn += 1) {
    await event('turn/start', { turn });
    await event('step/start', { turn, step: 1 });
    if (turn === 1 && formatVersion === 3) {
      await event(
        'system/message',
        {
          turn,
          step: 1,
          message: {
            id: 'system-1',
            role: 'system',
            content: [{ type: 'text', text: 'You are a synthetic agent.' }],
            source: { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' },
          },
        },
        { surfaceOp: 'append' },
      );
    }
    const text =
      turn === 1 && options.largeLineBytes !== undefined
        ? 'x'.repeat(options.largeLineBytes)
        : textOf(turn, 12).join('');
    await event(
      'user/message',
      { id: `message-${turn}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
      { surfaceOp: 'append' },
    );
    const members = textOf(turn, 24);
    const firstChunk = seq;
    if (packed) {
      time += 5;
      await line({
        type: 'text-chunks',
        seq0: seq,
        time0: time,
        data: { turn, step: 1, index: 0, dt: members.slice(1).map((_, k) => k % 3), texts: members },
      });
      seq += members.length;
      time += members.length;
    }
    // V0 writers stored plain source lists (see @teamlog/dsh's physical-record-encoder.ts).
    const sources: JsonObject = packed
      ? { sourceEventSeqs: Array.from({ length: seq - firstChunk }, (_, k) => firstChunk + k) }
      : {};
    await event(
      'assistant/message',
      {
        turn,
        step: 1,
        message: {
          id: `assistant-${turn}`,
          role: 'assistant',
          content: [{ type: 'text', text: members.join('') }],
          source: { kind: 'model', provider: 'synthetic', model: 'synthetic-1' },
        },
      },
      { ...sources, surfaceOp: 'append' },
    );
    const callId = `call-${turn}`;
    const call = await event('tool/call', { turn, step: 1, callId, name: 'bash', arguments: '{"command":"echo hi"}' });
    const toolMessage: JsonObject =
      formatVersion < 4
        ? {
            id: `tool-${turn}`,
            role: 'user',
            source: { kind: 'tool', callId },
            content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: 'hi' }] }],
          }
        : {
            id: `tool-${turn}`,
            role: 'tool',
            source: { kind: 'tool', callId },
            toolCallId: callId,
            content: [{ type: 'text', text: 'hi' }],
          };
    await event(
      'tool/result',
      { turn, step: 1, message: toolMessage },
      { sourceEventSeqs: [call], surfaceOp: 'append' },
    );
    await event('step/end', { turn, step: 1 });
    await event('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await flush();
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { file: options.file, sessionId, bytes, fileBytes, events: seq, lines };
};
