import { isLeft } from 'fp-ts/Either';
import { CompactPackedMember } from '../src/compact-packed-member';
import { sessionEventIds } from '../src/event-ids';
import { EventLineProcessor } from '../src/event-line-processor';
import { SplitLine } from '../src/line-splitter';
import { expandPackedRow } from '../src/packed-row-expander';
import { eventToAppendEncoder } from '../src/stored-event-codec';

const streamKey = 'compact-session';

/** A line as the splitter hands it on: a range of a larger read buffer. */
const lineOf = (number: number, value: unknown): SplitLine => {
  const bytes = Buffer.from(JSON.stringify(value));
  const read = Buffer.concat([Buffer.from('xx\n'), bytes, Buffer.from('\nyy')]);
  return new SplitLine(number, read, 3, 3 + bytes.length, 'utf8');
};

const rows = [
  {
    type: 'text-chunks',
    seq0: 0,
    time0: 1785097398382,
    data: { turn: 1, step: 2, index: 1, dt: [0, 3, 25], texts: ['d', 'sh', '-s', 'dk'] },
  },
  {
    type: 'reasoning-chunks',
    seq0: 4,
    time0: 1785097399000,
    data: { turn: 1, step: 3, index: 0, dt: [7], texts: ['thinking', ' on'] },
  },
  {
    type: 'tool-call-chunks',
    seq0: 6,
    time0: 1785097400000,
    data: { turn: 1, step: 4, index: 0, id: 'call-1', name: 'bash', dt: [1, 1], args: ['{"c', 'md":', '"ls"}'] },
  },
  {
    type: 'tool-call-chunks',
    seq0: 9,
    time0: 1785097401000,
    data: { turn: 1, step: 4, index: 0, id: 'call-1', dt: [2], args: ['{}', ''] },
  },
] as const;

const processorOf = (compact: boolean) =>
  new EventLineProcessor(
    'log.jsonl',
    0,
    false,
    'strict',
    undefined,
    false,
    compact ? sessionEventIds(streamKey) : undefined,
  );

const processed = (compact: boolean) => {
  const processor = processorOf(compact);
  return rows.flatMap((row, index) => processor.process(lineOf(index + 2, row)));
};

/** What a store is handed, as plain values. */
const appended = (event: { id: string; type: string; data: unknown; metadata?: unknown }) => ({
  id: event.id,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
});

describe('a packed row for a store that keeps no payload (compact members)', () => {
  it('visits each member as one object: the visited event is its own logical event and what the encoder appends', () => {
    const members = processed(true);
    const encode = eventToAppendEncoder(streamKey, false, false);
    expect(members).toHaveLength(11);
    for (const member of members) {
      expect(member).toBeInstanceOf(CompactPackedMember);
      expect(member.event).toBe(member);
      expect(encode(member.event, undefined, member.catalogChecked)).toBe(member);
    }
  });

  it('gives every member the seq, time, data, class, line, id and metadata the expanded row gives', () => {
    const compact = processed(true);
    const expanded = processed(false);
    const encode = eventToAppendEncoder(streamKey, false, false);
    const expected = rows.flatMap((row) => {
      const result = expandPackedRow(row.type, row as unknown as Record<string, unknown>);
      if (isLeft(result)) throw result.left;
      return result.right;
    });
    expect(compact.map((member) => member.event.seq)).toEqual(expected.map((event) => event.seq));
    compact.forEach((member, index) => {
      const plain = expanded[index];
      if (plain === undefined) throw new Error('a member is missing');
      const { type, seq, time, data, packed } = member.event;
      expect({ type, seq, time, data, packed }).toEqual(expected[index]);
      expect(member.eventClass).toBe(plain.eventClass);
      expect(member.line).toBe(plain.line);
      expect(member.catalogChecked).toBe(false);
      expect(Buffer.from(member.lineBytes).equals(Buffer.from(plain.lineBytes))).toBe(true);
      expect(member.lineLength).toBe(plain.lineLength);
      expect(JSON.stringify(appended(encode(member.event)))).toBe(JSON.stringify(appended(encode(plain.event))));
    });
  });

  it('makes a member’s data once, however often it is read', () => {
    const [member] = processed(true);
    expect(member?.event.data).toBe(member?.event.data);
  });

  it('still rejects a bad row as the expanded read does, naming line and field', () => {
    const bad = { ...rows[0], data: { ...rows[0].data, dt: [0, 'x', 25] } };
    for (const compact of [true, false]) {
      const processor = processorOf(compact);
      expect(processor.process(lineOf(2, bad))).toEqual([]);
      expect(processor.finish(undefined)).toMatchObject({ line: 2, detail: expect.stringContaining('data.dt[1]') });
    }
  });
});
