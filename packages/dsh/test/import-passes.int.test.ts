import { promises as fs } from 'fs';
import { join } from 'path';
import { SessionId } from '@teamlog/events';
import { EventStore, RecordedEvent, StagedAppends, StreamName, sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { TempStore, openTempStore, realLogsRoot } from './real-logs';
import { FileImportOptions, importSessionLog, importSessionLogs, readSessionLog } from '../src';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';

/*
 * A file whose events fit the single-pass budget is validated and appended from one read; a
 * larger one is validated, then appended from a second read. Which path ran is observable: an edit
 * made after validation (when the header record is staged) is refused by the second read and
 * never seen by a single read.
 */

const packedChunks = join(realLogsRoot, 'mirror-toninfo/examples/acp-agent/tests/snapshots/packed-chunks/session.jsonl');

let temp: TempStore;
beforeEach(async () => {
  temp = await openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

interface Append {
  readonly stream: string;
  readonly events: number;
}

/** The SQLite store, recording every staged batch and running `beforeHeader` just before the header record is staged. */
const recordingStore = (inner: SqliteEventStore, appends: Append[], beforeHeader: () => Promise<void> = async () => undefined): EventStore =>
  Object.create(inner, {
    stageAppends: {
      value: (): StagedAppends => {
        const unit = inner.stageAppends();
        return {
          append: async (...args: Parameters<StagedAppends['append']>) => {
            if (String(args[0]).startsWith('sessionheader-')) await beforeHeader();
            appends.push({ stream: String(args[0]), events: args[1].length });
            return unit.append(...args);
          },
          commit: () => unit.commit(),
          abort: () => unit.abort(),
        };
      },
    },
  }) as EventStore;

const readStored = async (store: EventStore, stream: StreamName): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  if ((await store.streamRevision(stream)) === undefined) return events;
  for await (const event of store.readStream(stream)) events.push(event);
  return events;
};

const comparable = (events: readonly RecordedEvent[]): unknown[] => events.map((event) => [event.revision, event.id, event.type, event.data, event.metadata]);

const originalText = async (): Promise<string> => fs.readFile(packedChunks, 'utf8');
const editedText = (text: string): string => text.replace('"text":"', '"text":"changed ');

/** Write `text` (which ends with a newline) raw, or as zstd: the header in one frame, the events in two. */
const writeLog = async (file: string, text: string, compression: 'none' | 'zstd'): Promise<void> => {
  if (compression === 'none') return fs.writeFile(file, text);
  await initZstdEncoder();
  const lines = text.split('\n');
  const parts = [`${lines.slice(0, 1).join('\n')}\n`, `${lines.slice(1, 18).join('\n')}\n`, lines.slice(18).join('\n')];
  return fs.writeFile(file, Buffer.concat(parts.map((part) => encodeZstdFrame(Buffer.from(part)))));
};

/** Import the packed-chunks log from `file`, editing the file right after the validating read. */
const importWithEditAfterValidation = async (store: SqliteEventStore, file: string, compression: 'none' | 'zstd', options: FileImportOptions) => {
  const appends: Append[] = [];
  const text = await originalText();
  await writeLog(file, text, compression);
  const result = await importSessionLog(file, recordingStore(store, appends, () => writeLog(file, editedText(text), compression)), options);
  return { result, appends };
};

describe('the single-pass import', () => {
  it('appends the events of the read that validated them: an edit made afterwards does not reach the store', async () => {
    const file = join(temp.directory, 'session.jsonl');
    const { result, appends } = await importWithEditAfterValidation(temp.store, file, 'none', { batchEvents: 10 });
    expect(result.rejected).toBeUndefined();
    const { events } = await readSessionLog(packedChunks);
    expect(result).toMatchObject({ events: events.length, appended: events.length });
    const stored = await readStored(temp.store, sessionStream(result.streamSessionId as SessionId));
    expect(stored.map((event) => event.data)).toEqual(events.map((event) => event.event.data));
    // Still staged in chunks of `batchEvents`, committed as one unit.
    expect(appends.filter((append) => append.stream.startsWith('session-')).map((append) => append.events)).toEqual(
      Array.from({ length: Math.ceil(events.length / 10) }, (_, k) => Math.min(10, events.length - k * 10)),
    );
  });

  it.each([
    ['an invalid catalog payload', '{"type":"turn/end","seq":124,"time":1785730418718,"data":{"turn":"one","reason":{"kind":"completed"}}}\n', 'invalid-event'],
    ['a turn/end after an unparsable line', 'not json\n{"type":"turn/end","seq":125,"time":1785730418718,"data":{"turn":2,"reason":{"kind":"completed"}}}\n', 'damaged-history'],
  ])('writes nothing for a file rejected at its last line (%s)', async (_name, lastLines, reason) => {
    const file = join(temp.directory, 'session.jsonl');
    await fs.writeFile(file, (await originalText()) + lastLines);
    const appends: Append[] = [];
    const result = await importSessionLog(file, recordingStore(temp.store, appends));
    expect(result.rejected?.reason).toBe(reason);
    expect(result.rejected?.line).toBeGreaterThan(36);
    expect(appends).toEqual([]);
    expect(temp.store.listStreams()).toEqual([]);
  });
});

describe('the switch to two passes', () => {
  it('reads a raw file larger than the budget twice: an edit between the reads is refused', async () => {
    const file = join(temp.directory, 'session.jsonl');
    const { result } = await importWithEditAfterValidation(temp.store, file, 'none', { singlePassBytes: 1024 });
    expect(result.rejected).toMatchObject({ reason: 'unreadable' });
    expect(result.rejected?.message).toMatch(/the file changed while it was imported \(chunk 1 differs/);
  });

  it('reads twice a file that fits the budget on disk but whose events do not (384 bytes per event)', async () => {
    const file = join(temp.directory, 'session.jsonl');
    const bytes = (await fs.stat(packedChunks)).size;
    const { result } = await importWithEditAfterValidation(temp.store, file, 'none', { singlePassBytes: bytes + 1 });
    expect(result.rejected?.message).toMatch(/the file changed while it was imported/);
    const other = await openTempStore();
    try {
      const { events } = await readSessionLog(packedChunks);
      const roomy = { singlePassBytes: bytes + 384 * events.length };
      const { result: once } = await importWithEditAfterValidation(other.store, join(other.directory, 'session.jsonl'), 'none', roomy);
      expect(once.rejected).toBeUndefined();
    } finally {
      await other.dispose();
    }
  });

  it('switches a zstd file (size unknown until read) to two passes once its events pass the budget', async () => {
    const file = join(temp.directory, 'session.jsonl.zstd');
    const { result } = await importWithEditAfterValidation(temp.store, file, 'zstd', { singlePassBytes: 8 * 1024 });
    expect(result.rejected?.message).toMatch(/the file changed while it was imported \(chunk 1 differs/);
    const other = await openTempStore();
    try {
      const { result: once } = await importWithEditAfterValidation(other.store, join(other.directory, 'session.jsonl.zstd'), 'zstd', {});
      expect(once.rejected).toBeUndefined();
    } finally {
      await other.dispose();
    }
  });

  it('refuses a file whose header changed between the reads, appending no event', async () => {
    const file = join(temp.directory, 'session.jsonl');
    await fs.writeFile(file, await originalText());
    const store = recordingStore(temp.store, [], async () => {
      await fs.writeFile(file, (await originalText()).replace('"delegationDepth":0', '"delegationDepth":1'));
    });
    const result = await importSessionLog(file, store, { singlePassBytes: 0 });
    expect(result.rejected).toMatchObject({ reason: 'unreadable' });
    expect(result.rejected?.message).toMatch(/its header differs from the validated read\); nothing was written/);
    expect(await readStored(temp.store, sessionStream(result.streamSessionId as SessionId))).toEqual([]);
  });
});

describe.each([
  ['one pass', {}],
  ['two passes', { singlePassBytes: 0 }],
] as const)('importing with %s', (_name, options) => {
  it('is idempotent, appends only the tail of a grown log, and refuses a changed prefix with nothing written', async () => {
    const file = join(temp.directory, 'session.jsonl');
    const lines = (await originalText()).split('\n');
    await fs.writeFile(file, `${lines.slice(0, 12).join('\n')}\n`);
    const early = await importSessionLog(file, temp.store, { ...options, batchEvents: 7 });
    expect(early.appended).toBe(early.events);
    await fs.writeFile(file, lines.join('\n'));
    const grown = await importSessionLog(file, temp.store, { ...options, batchEvents: 7 });
    expect(grown).toMatchObject({ alreadyStored: early.events, appended: grown.events - early.events });
    const again = await importSessionLog(file, temp.store, { ...options, batchEvents: 7 });
    expect(again).toMatchObject({ alreadyStored: grown.events, appended: 0 });
    await fs.writeFile(file, lines.join('\n').replace('"turn":1,"step":1,"index":0', '"turn":1,"step":1,"index":7'));
    const refused = await importSessionLog(file, temp.store, options);
    expect(refused.rejected?.reason).toBe('prefix-mismatch');
    expect(await readStored(temp.store, sessionStream(grown.streamSessionId as SessionId))).toHaveLength(grown.events);
  });
});

it('stores the same events through one pass and through two passes, for every real log', async () => {
  const twoPass = await openTempStore();
  try {
    const once = await importSessionLogs(realLogsRoot, temp.store);
    const twice = await importSessionLogs(realLogsRoot, twoPass.store, { singlePassBytes: 0 });
    expect(twice.files.map((file) => [file.file, file.appended, file.rejected?.reason])).toEqual(once.files.map((file) => [file.file, file.appended, file.rejected?.reason]));
    expect(once.appended).toBeGreaterThan(1000);
    const streams = temp.store.listStreams();
    expect(twoPass.store.listStreams()).toEqual(streams);
    for (const { streamName } of streams) {
      expect(comparable(await readStored(twoPass.store, streamName))).toEqual(comparable(await readStored(temp.store, streamName)));
    }
  } finally {
    await twoPass.dispose();
  }
});
