import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { type StoredLink, sessionStream } from '@teamlog/store';
import { exportSession, importSessionLog, readSessionLog } from '../src';
import { openTempStore } from './real-logs';

/* The SQLite store keeps an imported event's data as the text its line holds (docs/rules.md#stored-data-bytes). */

const header =
  '{"type":"session","version":4,"id":"bytes-kept","createdAt":1791190800000,"cwd":"/w","isSeeded":false,"delegationDepth":0}';
/** Lines no JSON.stringify writes: spacing, escapes, number spellings, data before seq, an unknown type. */
const eventLines = [
  '{"type":"turn/start","seq":0,"time":1791190800100,"data":{ "turn" : 1 }}',
  '{"data":{"note":"caf\\u00e9 \\/ ok","n":1.50,"big":12345678901234567890},"type":"x/unknown","seq":1,"time":1791190800200}',
  '{"type":"x/unknown","seq":2,"time":1791190800300,"data":[ 1,2 ] ,"extraKey":true}',
];
const dataTexts = ['{ "turn" : 1 }', '{"note":"caf\\u00e9 \\/ ok","n":1.50,"big":12345678901234567890}', '[ 1,2 ]'];

const storedData = async (links: AsyncIterable<StoredLink>, stream: string): Promise<string[]> => {
  const data: string[] = [];
  for await (const link of links) if (link.streamName === stream) data.push(link.data);
  return data;
};

describe('an imported event is stored as its line holds its data', () => {
  it.each([
    ['from the validating read (single pass)', undefined],
    ['from a second read of the file (two passes)', 0],
  ])('%s', async (_name, singlePassBytes) => {
    const temp = await openTempStore();
    try {
      const file = join(temp.directory, 'session.v4.jsonl');
      await fs.writeFile(file, `${[header, ...eventLines].join('\n')}\n`);
      const imported = await importSessionLog(
        file,
        temp.store,
        singlePassBytes === undefined ? {} : { singlePassBytes },
      );
      expect(imported.rejected).toBeUndefined();
      const key = imported.streamSessionId as SessionId;
      expect(await storedData(temp.store.readStoredLinks(), sessionStream(key))).toEqual(dataTexts);

      const out = join(temp.directory, 'exported.v4.jsonl');
      await exportSession(temp.store, key, { file: out });
      const [original, back] = [await readSessionLog(file), await readSessionLog(out)];
      expect(back.events.map((event) => event.event)).toEqual(original.events.map((event) => event.event));
    } finally {
      await temp.dispose();
    }
  });
});
