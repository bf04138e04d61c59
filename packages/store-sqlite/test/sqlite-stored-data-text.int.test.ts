import type { EventId } from '@teamlog/events';
import { type EventToAppend, type StoredLink, eventDigest, streamName } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { tempStoreFile } from './temp-store-file';

/* An event's own JSON text of its data is stored as it is, and chained as stored (docs/rules.md#stored-data-bytes). */

let nextId = 0;
const withText = (dataText: string): EventToAppend => ({
  id: `0190b000-0000-7000-8000-${String((nextId += 1)).padStart(12, '0')}` as EventId,
  type: 'x/text',
  data: JSON.parse(dataText),
  metadata: { time: 1 },
  dataText,
});
const texts = ['{ "n" : 1.50, "s":"\\u00e9\\/" }', '[1,\t2]', '12345678901234567890'];

const linksOf = async (store: SqliteEventStore): Promise<StoredLink[]> => {
  const links: StoredLink[] = [];
  for await (const link of store.readStoredLinks()) links.push(link);
  return links;
};

describe("the SQLite store keeps a writer's own data text", () => {
  it('stores and chains the text of an append and of a staged unit as given, and reads back its value', async () => {
    const temp = tempStoreFile();
    const store = SqliteEventStore.open(temp.file);
    try {
      const appended = streamName('session-appended');
      const staged = streamName('session-staged');
      await store.appendToStream(appended, texts.map(withText));
      const unit = store.stageAppends();
      await unit.append(staged, texts.map(withText), { expectedRevision: 'no_stream' });
      await unit.commit();
      const links = await linksOf(store);
      for (const stream of [appended, staged]) {
        const mine = links.filter((link) => link.streamName === stream);
        expect(mine.map((link) => link.data)).toEqual(texts);
        let previous: string | undefined;
        for (const link of mine) {
          previous = eventDigest(previous, link);
          expect(link.digest).toBe(previous);
        }
        const read = [];
        for await (const event of store.readStream(stream)) read.push(event.data);
        expect(read).toEqual(texts.map((text) => JSON.parse(text)));
      }
    } finally {
      await store.close();
      temp.cleanup();
    }
  });

  it("stores and chains an append's metadata text as the writer gave it", async () => {
    const temp = tempStoreFile();
    const store = SqliteEventStore.open(temp.file);
    try {
      const stream = streamName('session-metadata-text');
      const metadataText = '{ "time" : 1 }';
      await store.appendToStream(stream, [{ ...withText('{}'), metadataText }]);
      const [link] = await linksOf(store);
      expect(link?.metadata).toBe(metadataText);
      expect(link?.digest).toBe(eventDigest(undefined, link as StoredLink));
      for await (const event of store.readStream(stream)) expect(event.metadata).toEqual({ time: 1 });
    } finally {
      await store.close();
      temp.cleanup();
    }
  });
});
