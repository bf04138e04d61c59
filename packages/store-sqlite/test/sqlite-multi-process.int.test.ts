import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkLink, finishChainWalk, startChainWalk } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { collect, uniqueStream } from '@teamlog/store-conformance';
import { tempStoreFile } from './temp-store-file';

/* Real child processes against one SQLite file, through the compiled adapter (npm test builds first). */

const dist = resolve(__dirname, '../dist/index.js');
const storeDist = resolve(__dirname, '../../store/dist/index.js');

const appenderScript = `
const { SqliteEventStore } = require(${JSON.stringify(dist)});
const { isStoreError } = require(${JSON.stringify(storeDist)});
const { randomUUID } = require('node:crypto');
const [file, stream, count, batchSize, mode] = process.argv.slice(1);
(async () => {
  const store = SqliteEventStore.open(file, { bulkLoadWhenCreated: mode === 'bulk' });
  for (let batch = 0; batch < Number(count); batch += 1) {
    const events = Array.from({ length: Number(batchSize) }, (_, index) => ({
      id: randomUUID(), type: 'race/append', data: { pid: process.pid, batch, index, size: Number(batchSize) },
    }));
    for (;;) {
      const current = await store.streamRevision(stream);
      try {
        await store.appendToStream(stream, events, { expectedRevision: current === undefined ? 'no_stream' : current });
        break;
      } catch (error) {
        if (!isStoreError(error, 'WrongExpectedVersion')) throw error;
      }
    }
    process.stdout.write(events.map((event) => event.id).join('\\n') + '\\n');
  }
  await store.close();
})().catch((error) => { console.error(error); process.exit(1); });
`;

const runAppender = (
  args: string[],
): { child: ChildProcess; acknowledged: string[]; exited: Promise<number | null> } => {
  const child = spawn(process.execPath, ['-e', appenderScript, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acknowledged: string[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    acknowledged.push(...lines.filter((line) => line.length > 0));
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, acknowledged, exited };
};

describe('SqliteEventStore shared by several processes', () => {
  it('two processes appending to one stream at once serialise: no gap, no duplicate, nothing lost, one whole hash chain', async () => {
    const { file, cleanup } = tempStoreFile();
    SqliteEventStore.open(file).close(); // create the schema before the race
    const stream = uniqueStream('multi');
    const writers = [runAppender([file, stream, '60', '3']), runAppender([file, stream, '60', '3'])];
    expect(await Promise.all(writers.map((writer) => writer.exited))).toEqual([0, 0]);
    const store = SqliteEventStore.open(file);
    const events = await collect(store.readStream(stream));
    expect(events.map((event) => event.revision)).toEqual(Array.from({ length: 360 }, (_, n) => BigInt(n)));
    const reported = writers.flatMap((writer) => writer.acknowledged);
    expect(new Set(events.map((event) => event.id))).toEqual(new Set(reported));
    expect(reported).toHaveLength(360);
    // Each process resumes the chain from its own last commit only while the other has not written since.
    const chain = startChainWalk([]);
    for await (const link of store.readStoredLinks()) checkLink(chain, link);
    expect(finishChainWalk(chain).breaks).toEqual([]);
    await store.close();
    cleanup();
  }, 60_000);

  it('a writer killed with SIGKILL mid-append leaves only whole batches, including every acknowledged one', async () => {
    const { file, cleanup } = tempStoreFile();
    SqliteEventStore.open(file).close();
    const stream = uniqueStream('killed');
    const writer = runAppender([file, stream, '100000', '200']);
    while (writer.acknowledged.length < 2_000) await new Promise((done) => setTimeout(done, 5));
    writer.child.kill('SIGKILL');
    await writer.exited;
    const store = SqliteEventStore.open(file);
    expect(store.database.pragma('integrity_check', { simple: true })).toBe('ok');
    const events = await collect(store.readStream(stream));
    expect(events.map((event) => event.revision)).toEqual(events.map((_, n) => BigInt(n)));
    expect(events.length % 200).toBe(0);
    const stored = new Set<string>(events.map((event) => event.id));
    expect(writer.acknowledged.every((id) => stored.has(id))).toBe(true);
    await store.close();
    cleanup();
  }, 60_000);

  it('an import killed while it writes a file it created with a rollback journal leaves only whole batches, every acknowledged one, and the next writer opens it as WAL', async () => {
    const { file, cleanup } = tempStoreFile();
    const stream = uniqueStream('killed-bulk');
    const writer = runAppender([file, stream, '100000', '2000', 'bulk']);
    while (writer.acknowledged.length < 4_000) await new Promise((done) => setTimeout(done, 5));
    writer.child.kill('SIGKILL');
    await writer.exited;
    const store = SqliteEventStore.open(file);
    expect(store.database.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    const events = await collect(store.readStream(stream));
    expect(events.map((event) => event.revision)).toEqual(events.map((_, n) => BigInt(n)));
    expect(events.length % 2000).toBe(0);
    const stored = new Set<string>(events.map((event) => event.id));
    expect(writer.acknowledged.every((id) => stored.has(id))).toBe(true);
    await store.close();
    cleanup();
  }, 60_000);

  it('a file left with a hot journal by a killed import is read without being written, and the next writer rolls it back to WAL', async () => {
    const { file, cleanup } = tempStoreFile();
    const stream = uniqueStream('hot-journal');
    // One committed append, then a transaction that deletes it and spills (a tiny page cache), killed before its commit.
    const script = `
const { SqliteEventStore } = require(${JSON.stringify(dist)});
(async () => {
  const store = SqliteEventStore.open(process.argv[1], { bulkLoadWhenCreated: true });
  await store.appendToStream(process.argv[2], [{ id: require('node:crypto').randomUUID(), type: 'hot/append', data: {} }]);
  store.database.pragma('cache_size = 10');
  store.database.exec('BEGIN IMMEDIATE');
  store.database.exec('DELETE FROM events');
  store.database.exec('CREATE TABLE filler (x BLOB)');
  store.database.exec('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT randomblob(1000) FROM n');
  process.stdout.write('ready\\n');
  setInterval(() => undefined, 1000);
})().catch((error) => { console.error(error); process.exit(1); });
`;
    const child = spawn(process.execPath, ['-e', script, file, stream], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    await new Promise<void>((done) => child.stdout?.on('data', () => done()));
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(`${file}-journal`)).toBe(true);
    const reader = SqliteEventStore.openReadOnly(file);
    expect(await collect(reader.readStream(stream))).toHaveLength(1);
    await reader.close();
    expect(existsSync(`${file}-journal`)).toBe(true);
    const store = SqliteEventStore.open(file);
    expect(existsSync(`${file}-journal`)).toBe(false);
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.database.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(await collect(store.readStream(stream))).toHaveLength(1);
    await store.close();
    cleanup();
  }, 60_000);
});
