import type { EventId } from '@teamlog/events';
import { type EventToAppend, eventDigest } from '@teamlog/store';
import { uniqueStream } from '@teamlog/store-conformance';
import { rawQuery } from './raw-sql';
import { databaseForFile, withStore } from './test-database';

/*
 * An event's own JSON text of its data is stored as it is (json keeps its text), and chained as
 * stored, so the digest is the one the SQLite store computes (eventDigest) for the same text
 * (docs/rules.md#stored-data-bytes).
 */

let nextId = 0;
const withText = (dataText: string): EventToAppend => ({
  id: `0190c000-0000-7000-8000-${String((nextId += 1)).padStart(12, '0')}` as EventId,
  type: 'x/text',
  data: JSON.parse(dataText),
  metadata: { time: 1 },
  dataText,
});
const texts = ['{ "n" : 1.50, "s":"\\u00e9\\/" }', '[1,\t2]', '12345678901234567890'];

describe("the PostgreSQL store keeps a writer's own data text", () => {
  const database = databaseForFile('datatext');

  it('stores and chains the text of an append and of a staged unit as given, and reads back its value', async () => {
    const appended = uniqueStream();
    const staged = uniqueStream();
    await withStore(database().url, async (store) => {
      await store.appendToStream(appended, texts.map(withText));
      const unit = store.stageAppends();
      await unit.append(staged, texts.map(withText), { expectedRevision: 'no_stream' });
      await unit.commit();
      const read = [];
      for await (const event of store.readStream(staged)) read.push(event.data);
      expect(read).toEqual(texts.map((text) => JSON.parse(text)));
    });
    for (const stream of [appended, staged]) {
      const rows = await rawQuery<{ type: string; data: string; metadata: string | null; digest: string }>(
        database().url,
        'SELECT type, data::text AS data, metadata::text AS metadata, digest FROM teamlog.events WHERE stream_name = $1 ORDER BY revision',
        [stream],
      );
      expect(rows.map((row) => row.data)).toEqual(texts);
      let previous: string | undefined;
      for (const row of rows) {
        previous = eventDigest(previous, { type: 'x/text', data: row.data, metadata: '{"time":1}' });
        expect(row.digest).toBe(previous);
      }
    }
  });
});
