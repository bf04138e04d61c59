// A writer process for the failure tests, appending through the compiled adapter (npm test builds first).
//   cas <url> <prefix> <streams> <count>      `count` single-event appends into shared streams, each with the
//                                             exact expected revision, retried after WrongExpectedVersion; prints each id
//   batches <url> <stream> <count> <size>     `count` appends of `size` events to one stream; prints the ids of each
//   outcomes <url> <prefix> <count>           appends to its own stream with exact revisions; prints "ok <ids>" or
//                                             "failed <ids>" per append, and carries on after a failure
// The store's log lines (retries, reconnects) are printed as "log <line>".
const { resolve } = require('node:path');
const { randomUUID } = require('node:crypto');
const { openPostgresStore } = require(resolve(__dirname, '../dist/index.js'));
const { isStoreError } = require(resolve(__dirname, '../../store/dist/index.js'));

const event = (data) => ({ id: randomUUID(), type: 'failure/test', data });
const print = (line) => process.stdout.write(`${line}\n`);

const modes = {
  cas: async (store, [prefix, streams, count]) => {
    for (let n = 0; n < Number(count); n += 1) {
      const stream = `${prefix}-${n % Number(streams)}`;
      const appended = event({ pid: process.pid, n });
      for (;;) {
        const revision = await store.streamRevision(stream);
        try {
          await store.appendToStream(stream, [appended], {
            expectedRevision: revision === undefined ? 'no_stream' : revision,
          });
          break;
        } catch (error) {
          if (!isStoreError(error, 'WrongExpectedVersion')) throw error;
        }
      }
      print(appended.id);
    }
  },
  batches: async (store, [stream, count, size]) => {
    for (let n = 0; n < Number(count); n += 1) {
      const events = Array.from({ length: Number(size) }, (_, index) => event({ n, index }));
      await store.appendToStream(stream, events);
      print(events.map((appended) => appended.id).join('\n'));
    }
  },
  outcomes: async (store, [prefix, count]) => {
    const stream = `${prefix}-${process.pid}`;
    let next = 0n;
    for (let n = 0; n < Number(count); n += 1) {
      const events = [event({ n }), event({ n })];
      try {
        const result = await store.appendToStream(stream, events, {
          expectedRevision: next === 0n ? 'no_stream' : next - 1n,
        });
        next = result.nextExpectedRevision + 1n;
        print(`ok ${events.map((appended) => appended.id).join(' ')}`);
      } catch (error) {
        print(`failed ${events.map((appended) => appended.id).join(' ')} ${String(error?.name)}`);
        const revision = await store.streamRevision(stream).catch(() => undefined);
        if (revision !== undefined) next = revision + 1n;
      }
    }
  },
};

const [mode, url, ...args] = process.argv.slice(2);
(async () => {
  const store = await openPostgresStore(url, {
    retry: { initialDelayMs: 50, maxDelayMs: 1000, maxAttempts: 40 },
    log: (line) => print(`log ${line}`),
  });
  await modes[mode](store, args);
  await store.close();
})().catch((error) => {
  console.error(error?.stack ? error.stack : error);
  process.exit(1);
});
