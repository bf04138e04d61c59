import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { InMemoryEventStore, migrateStore } from '@teamlog/store';
import { expectSameStreams, fillSource, FlakyTarget, migrationStoppedAfter } from '@teamlog/store-conformance';

const tempDirectory = (): { path: (name: string) => string; cleanup: () => void } => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-migrate-'));
  return { path: (name) => join(directory, name), cleanup: () => rmSync(directory, { recursive: true, force: true }) };
};

describe('migrateStore with the SQLite store', () => {
  let directory: ReturnType<typeof tempDirectory>;
  beforeEach(() => {
    directory = tempDirectory();
  });
  afterEach(() => directory.cleanup());

  it('copies a SQLite store into another SQLite file, interrupted after three streams and run again', async () => {
    const source = SqliteEventStore.open(directory.path('source.db'));
    let target = SqliteEventStore.open(directory.path('target.db'));
    const streams = await fillSource(source, 8, 12);
    const interrupted = await migrationStoppedAfter(source, target, 3, 2);
    // As if the process had died: reopen the target file and run again.
    await target.close();
    target = SqliteEventStore.open(directory.path('target.db'));
    const report = await migrateStore({ from: source, to: target });
    expect(report.streams).toBe(8);
    expect(report.events).toBe(96);
    expect(report.eventsAlreadyPresent + report.eventsCopied).toBe(96);
    expect(report.eventsAlreadyPresent).toBe(interrupted.eventsCopied);
    await expectSameStreams(source, target, streams);
    expect(target.listStreams().filter((stream) => streams.includes(stream.streamName))).toHaveLength(8);
    await source.close();
    await target.close();
  });

  it('copies SQLite into memory and memory into SQLite, surviving a lost append reply', async () => {
    const sqlite = SqliteEventStore.open(directory.path('source.db'));
    const streams = await fillSource(sqlite);
    const memory = new InMemoryEventStore();
    await migrateStore({ from: sqlite, to: memory });
    await expectSameStreams(sqlite, memory, streams);

    const back = SqliteEventStore.open(directory.path('back.db'));
    const flaky = new FlakyTarget(back);
    flaky.loseReplyOfAppend = 5;
    await expect(migrateStore({ from: memory, to: flaky })).rejects.toThrow(
      'connection lost after the append was written',
    );
    const report = await migrateStore({ from: memory, to: back });
    expect(report.eventsAlreadyPresent).toBeGreaterThan(0);
    await expectSameStreams(memory, back, streams);
    await sqlite.close();
    await back.close();
  });
});
