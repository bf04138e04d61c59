import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import {
  type EventStore,
  type RecordedEvent,
  type StagedAppends,
  type StreamName,
  sessionHeaderStream,
  sessionStream,
} from '@teamlog/store';
import type { SqliteEventStore } from '@teamlog/store-sqlite';
import { type TempStore, openTempStore, realLogsRoot } from './real-logs';
import { type FileImportOptions, importSessionLog, readSessionLog } from '../src';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';

/*
 * A file whose events fit the single-pass budget is validated and appended from one read; a
 * larger one is validated, then appended from a second read. Which path ran is observable: an edit
 * made after validation (when the header record is staged) is refused by the second read and
 * never seen by a single read.
 */

const packedChunks = join(
  realLogsRoot,
  'mirror-toninfo/examples/acp-agent/tests/snapshots/packed-chunks/session.jsonl',
);

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
const recordingStore = (
  inner: SqliteEventStore,
  appends: Append[],
  beforeHeader: () => Promise<void> = async () => undefined,
): EventStore =>
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
const importWithEditAfterValidation = async (
  store: SqliteEventStore,
  file: string,
  compression: 'none' | 'zstd',
  options: FileImportOptions,
) => {
  const appends: Append[] = [];
  const text = await originalText();
  await writeLog(file, text, compression);
  const result = await importSessionLog(
    file,
    recordingStore(store, appends, () => writeLog(file, editedText(text), compression)),
    options,
  );
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
    [
      'an invalid catalog payload',
      '{"type":"turn/end","seq":124,"time":1785730418718,"data":{"turn":"one","reason":{"kind":"completed"}}}\n',
      'invalid-event',
    ],
    [
      'a turn/end after an unparsable line',
      'not json\n{"type":"turn/end","seq":125,"time":1785730418718,"data":{"turn":2,"reason":{"kind":"completed"}}}\n',
      'damaged-history',
    ],
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

/** The import stored what the file holds now (the edited text), read again from its start. */
const expectStoredAsFileNow = async (
  store: EventStore,
  file: string,
  result: Awaited<ReturnType<typeof importSessionLog>>,
): Promise<void> => {
  expect(result.rejected).toBeUndefined();
  const { events } = await readSessionLog(file);
  const stored = await readStored(store, sessionStream(result.streamSessionId as SessionId));
  expect(stored.map((event) => event.data)).toEqual(events.map((event) => event.event.data));
  expect(JSON.stringify(stored.map((event) => event.data))).toContain('changed ');
};

describe('the switch to two passes', () => {
  it('reads a raw file larger than the budget twice: an edit between the reads is seen, and the file is imported again from its start', async () => {
    const file = join(temp.directory, 'session.jsonl');
    const { result } = await importWithEditAfterValidation(temp.store, file, 'none', { singlePassBytes: 1024 });
    await expectStoredAsFileNow(temp.store, file, result);
  });

  it('reads twice a file that fits the budget on disk but whose events do not (384 bytes per event)', async () => {
    const file = join(temp.directory, 'session.jsonl');
    const bytes = (await fs.stat(packedChunks)).size;
    const { result } = await importWithEditAfterValidation(temp.store, file, 'none', { singlePassBytes: bytes + 1 });
    await expectStoredAsFileNow(temp.store, file, result);
    const other = await openTempStore();
    try {
      const { events } = await readSessionLog(packedChunks);
      const roomy = { singlePassBytes: bytes + 384 * events.length };
      const { result: once } = await importWithEditAfterValidation(
        other.store,
        join(other.directory, 'session.jsonl'),
        'none',
        roomy,
      );
      expect(once.rejected).toBeUndefined();
      const stored = await readStored(other.store, sessionStream(once.streamSessionId as SessionId));
      expect(JSON.stringify(stored.map((event) => event.data))).not.toContain('changed ');
    } finally {
      await other.dispose();
    }
  });

  it('switches a zstd file (size unknown until read) to two passes once its events pass the budget', async () => {
    const file = join(temp.directory, 'session.jsonl.zstd');
    const { result } = await importWithEditAfterValidation(temp.store, file, 'zstd', { singlePassBytes: 8 * 1024 });
    await expectStoredAsFileNow(temp.store, file, result);
    const other = await openTempStore();
    try {
      const { result: once } = await importWithEditAfterValidation(
        other.store,
        join(other.directory, 'session.jsonl.zstd'),
        'zstd',
        {},
      );
      expect(once.rejected).toBeUndefined();
      const stored = await readStored(other.store, sessionStream(once.streamSessionId as SessionId));
      expect(JSON.stringify(stored.map((event) => event.data))).not.toContain('changed ');
    } finally {
      await other.dispose();
    }
  });

  it('imports again a file whose header changed between the reads, and stores the header it holds now', async () => {
    const file = join(temp.directory, 'session.jsonl');
    await fs.writeFile(file, await originalText());
    const store = recordingStore(temp.store, [], async () => {
      await fs.writeFile(file, (await originalText()).replace('"delegationDepth":0', '"delegationDepth":1'));
    });
    const result = await importSessionLog(file, store, { singlePassBytes: 0 });
    expect(result.rejected).toBeUndefined();
    const headers = await readStored(temp.store, sessionHeaderStream(result.streamSessionId as SessionId));
    expect(
      headers.map((event) => (event.data as { header: { delegationDepth: number } }).header.delegationDepth),
    ).toEqual([1]);
  });

  it('refuses a file that keeps changing through every retry, appending no event', async () => {
    const file = join(temp.directory, 'session.jsonl');
    await fs.writeFile(file, await originalText());
    let edits = 0;
    const store = recordingStore(temp.store, [], async () => {
      edits += 1;
      await fs.writeFile(file, (await originalText()).replace('"delegationDepth":0', `"delegationDepth":${edits}`));
    });
    const result = await importSessionLog(file, store, { singlePassBytes: 0, retries: 2 });
    expect(result.rejected).toMatchObject({ reason: 'unreadable' });
    expect(result.rejected?.message).toMatch(
      /the file changed while it was imported \(its header differs from the validated read\); nothing was written/,
    );
    expect(edits).toBe(3);
    expect(await readStored(temp.store, sessionStream(result.streamSessionId as SessionId))).toEqual([]);
  });
});
