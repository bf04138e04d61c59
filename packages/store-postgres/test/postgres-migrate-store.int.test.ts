import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateStore } from '@teamlog/store';
import { expectSameStreams, fillSource, migrationStoppedAfter } from '@teamlog/store-conformance';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { openPostgresStore } from '@teamlog/store-postgres';
import { withFreshStore } from './fresh-store';

describe('migrateStore between SQLite and PostgreSQL', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'teamlog-pg-migrate-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('copies a SQLite file into PostgreSQL (interrupted, then run again) and back into a new file, every event verified', () =>
    withFreshStore('migrate', async (first, url) => {
      const source = SqliteEventStore.open(join(directory, 'source.db'));
      const streams = await fillSource(source, 8, 12);
      const interrupted = await migrationStoppedAfter(source, first, 3, 2);
      // As if the process had died: another store on the database runs it again.
      const postgres = await openPostgresStore(url);
      try {
        const report = await migrateStore({ from: source, to: postgres });
        expect(report).toMatchObject({ streams: 8, events: 96, eventsAlreadyPresent: interrupted.eventsCopied });
        expect(report.eventsCopied + report.eventsAlreadyPresent).toBe(96);
        await expectSameStreams(source, postgres, streams);
        expect(
          (await postgres.listStreams()).map((stream) => stream.streamName).filter((name) => streams.includes(name)),
        ).toHaveLength(8);

        const back = SqliteEventStore.open(join(directory, 'back.db'));
        const returned = await migrateStore({ from: postgres, to: back });
        expect(returned).toMatchObject({ streams: 8, events: 96, eventsCopied: 96 });
        await expectSameStreams(postgres, back, streams);
        await expectSameStreams(source, back, streams);
        expect(await migrateStore({ from: postgres, to: back })).toMatchObject({
          eventsCopied: 0,
          eventsAlreadyPresent: 96,
        });
        await back.close();
      } finally {
        await postgres.close();
      }
      await source.close();
    }));
});
