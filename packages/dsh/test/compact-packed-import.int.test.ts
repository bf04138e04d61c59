import { join } from 'node:path';
import {
  type EventStore,
  type EventToAppend,
  HeadsOnlyEventStore,
  InMemoryEventStore,
  type StagedAppends,
} from '@teamlog/store';
import { importSessionLog } from '../src';
import { CompactPackedMember } from '../src/compact-packed-member';

const packedLog = join(__dirname, '..', '..', '..', 'fixtures/crafted/packed-seeded-v1/session.v1.jsonl');

/** What a store is handed for one session event, as plain values, and whether it came as a compact member. */
interface Handed {
  readonly compact: boolean;
  readonly values: string;
}

const noted = (event: EventToAppend): Handed => ({
  compact: event instanceof CompactPackedMember,
  values: JSON.stringify({ id: event.id, type: event.type, data: event.data, metadata: event.metadata }),
});

/** Notes each session event staged into a unit of `store`. */
const noting = <S extends EventStore>(store: S, into: Handed[]): S => {
  const stageAppends = store.stageAppends.bind(store);
  store.stageAppends = (): StagedAppends => {
    const unit = stageAppends();
    return {
      ...unit,
      append: (stream, events, options) => {
        if (stream.startsWith('session-')) for (const event of events) into.push(noted(event));
        return unit.append(stream, events, options);
      },
    };
  };
  return store;
};

describe('a packed row imported into a store that keeps no payload', () => {
  it('reaches the heads-only store as compact members, with the ids, data and metadata any store is handed', async () => {
    const headsOnly: Handed[] = [];
    const kept: Handed[] = [];
    const result = await importSessionLog(packedLog, noting(new HeadsOnlyEventStore(), headsOnly));
    expect(result.rejected).toBeUndefined();
    expect((await importSessionLog(packedLog, noting(new InMemoryEventStore(), kept))).rejected).toBeUndefined();
    expect(headsOnly.map((event) => event.values)).toEqual(kept.map((event) => event.values));
    const chunks = headsOnly.filter((event) => event.values.includes('"packed":'));
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((event) => event.compact)).toBe(true);
    expect(kept.some((event) => event.compact)).toBe(false);
  });
});
