import { collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import { openPostgresStore } from '@teamlog/store-postgres';
import { databaseForFile } from './test-database';

/* Beyond the port: the PostgreSQL unit keeps its events in memory up to a bound, and says so. */

describe('PostgreSQL staged appends', () => {
  const database = databaseForFile('staged-appends');

  it('refuses a unit past maxStagedBytes while staging, writing nothing', async () => {
    const store = await openPostgresStore(database().url, { maxStagedBytes: 4_000 });
    try {
      const stream = uniqueStream();
      const unit = store.stageAppends();
      await unit.append(stream, [newEvent('big/one', { blob: 'x'.repeat(3_000) })], { expectedRevision: 'no_stream' });
      await expect(unit.append(stream, [newEvent('big/two', { blob: 'x'.repeat(3_000) })])).rejects.toMatchObject({
        code: 'StagedAppendsTooLarge',
      });
      await expect(unit.commit()).rejects.toThrow(/already committed or aborted/);
      expect(await store.streamRevision(stream)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('a committed unit is read back by another store on the same database, in $all order, first stream first', async () => {
    const writer = await openPostgresStore(database().url);
    const reader = await openPostgresStore(database().url);
    try {
      const header = uniqueStream('header');
      const body = uniqueStream('body');
      const unit = writer.stageAppends();
      await unit.append(header, [newEvent('h')], { expectedRevision: 'no_stream' });
      await unit.append(body, [newEvent('b/0'), newEvent('b/1')], { expectedRevision: 'no_stream' });
      await unit.commit();
      const ours = (await collect(reader.readAll())).filter(
        (event) => event.streamName === header || event.streamName === body,
      );
      expect(ours.map((event) => event.type)).toEqual(['h', 'b/0', 'b/1']);
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
