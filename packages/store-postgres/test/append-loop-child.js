// A writer process for the $all order test: `loops` concurrent loops, each appending `count`
// batches of 1-3 events with expected revision 'any' into `streams` streams it shares with its
// other loops. Prints every event id once its append returned.
const { resolve } = require('node:path');
const { randomUUID } = require('node:crypto');
const { openPostgresStore } = require(resolve(__dirname, '../dist/index.js'));

const [url, prefix, streams, count, loops] = process.argv.slice(2);
(async () => {
  const store = await openPostgresStore(url);
  await Promise.all(
    Array.from({ length: Number(loops) }, async (_, loop) => {
      for (let n = 0; n < Number(count); n += 1) {
        const events = Array.from({ length: 1 + ((loop + n) % 3) }, () => ({
          id: randomUUID(),
          type: 'race/child',
          data: { loop, n },
        }));
        await store.appendToStream(`${prefix}-s${(loop + n) % Number(streams)}`, events);
        process.stdout.write(`${events.map((event) => event.id).join('\n')}\n`);
      }
    }),
  );
  await store.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
