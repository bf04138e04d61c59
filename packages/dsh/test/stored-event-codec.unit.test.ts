import { isLeft } from 'fp-ts/Either';
import type { LogicalEvent } from '../src/logical-event';
import { expandPackedRow } from '../src/packed-row-expander';
import { eventToAppendEncoder } from '../src/stored-event-codec';

const members = (): readonly LogicalEvent[] => {
  const expanded = expandPackedRow('text-chunks', {
    type: 'text-chunks',
    seq0: 4094,
    time0: 1785000000014,
    data: { turn: 1, step: 1, index: 0, dt: [0, 7, 2], texts: ['a', 'b', 'c', 'd'] },
  });
  if (isLeft(expanded)) throw expanded.left;
  return expanded.right;
};

/** The fields a store reads of an event to append. */
const fields = (event: ReturnType<ReturnType<typeof eventToAppendEncoder>>) => ({
  id: event.id,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
  catalog: event.catalog,
  dataText: event.dataText,
});

describe('the events of a session stream as the store keeps them', () => {
  it.each([false, true])(
    'give a packed row member (normalised %s) for a store that keeps no payload the id and metadata it has for any store, made when read',
    (normalised) => {
      const payloadless = eventToAppendEncoder('s-1', normalised, false);
      const keeping = eventToAppendEncoder('s-1', normalised, true);
      for (const member of members()) {
        const encoded = payloadless(member);
        expect(Object.hasOwn(encoded, 'id')).toBe(false);
        expect(Object.hasOwn(encoded, 'metadata')).toBe(false);
        expect(fields(encoded)).toEqual(fields(keeping(member)));
        expect(encoded.data).toBe(member.data);
      }
      expect(payloadless(members()[2] as LogicalEvent).metadata).toEqual({
        time: 1785000000014 + 7,
        ...(normalised ? { normalised: true } : {}),
        packed: 'text-chunks',
      });
    },
  );

  it('give any event for a store that keeps no payload, its verdict handed on, the same fields made when read', () => {
    const payloadless = eventToAppendEncoder('s-1', false, false);
    const keeping = eventToAppendEncoder('s-1', false, true);
    const event: LogicalEvent = { type: 'turn/start', seq: 4097, time: 1, data: { turn: 1 }, surfaceOp: 'append' };
    for (const verdict of [undefined, true]) {
      for (const logical of [event, members()[0] as LogicalEvent]) {
        const encoded = payloadless(logical, undefined, verdict);
        expect(Object.hasOwn(encoded, 'id')).toBe(false);
        expect(Object.hasOwn(encoded, 'metadata')).toBe(false);
        expect(fields(encoded)).toEqual(fields(keeping(logical, undefined, verdict)));
        expect(encoded.catalog).toBe(verdict);
      }
    }
  });
});
