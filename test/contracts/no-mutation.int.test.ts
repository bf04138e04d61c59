import { resolve } from 'node:path';
import { type EventId, sequentialIds } from '@teamlog/events';
import { importSessionLogs } from '@teamlog/dsh';
import { TeamlogProjections } from '@teamlog/projections';
import { InMemoryEventStore, streamName } from '@teamlog/store';
import { runDemo } from '@teamlog/scripted-host';

/*
 * The in-memory store shares the events it keeps with writers and readers instead of copying them;
 * the contract is that nobody mutates one. Over a store that deep-freezes every event, any writer or
 * fold that mutated one would throw (TypeScript compiles to strict mode): these runs would fail.
 */
const fixtures = resolve(__dirname, '../../fixtures');

describe('nobody mutates a stored event (the in-memory store shares them)', () => {
  it('given a store that freezes what it keeps, then a demo team, the historical fixtures and their views run through it unchanged', async () => {
    const store = new InMemoryEventStore({ freezeEvents: true });
    let tick = Date.UTC(2026, 10, 1);
    await runDemo(store, sequentialIds('nm'), () => new Date((tick += 1000)));
    const report = await importSessionLogs(fixtures, store);
    expect(report.imported).toBeGreaterThan(10);
    const projections = await TeamlogProjections.inMemory(store);
    expect(await projections.catchUp()).toBeGreaterThan(1000);
    expect(projections.views().teams().length).toBeGreaterThan(3);
    for await (const event of store.readAll()) {
      expect(Object.isFrozen(event.data)).toBe(true);
    }
  });

  it('given a frozen event, then changing its data throws', async () => {
    const store = new InMemoryEventStore({ freezeEvents: true });
    const data = { nested: { list: [1, 2] } };
    await store.appendToStream(streamName('session-x'), [
      { id: '0190a000-0000-7000-8000-0000000000aa' as EventId, type: 'x/y', data },
    ]);
    expect(() => {
      data.nested.list.push(3);
    }).toThrow(TypeError);
  });
});
