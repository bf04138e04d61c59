import { isLeft, isRight } from 'fp-ts/Either';
import { expandPackedRow } from '../src/packed-row-expander';
import { packChunkRuns } from '../src/packed-row-packer';
import type { LogicalEvent } from '../src/logical-event';

const referenceRow = {
  type: 'text-chunks',
  seq0: 84,
  time0: 1785097398382,
  data: {
    turn: 1,
    step: 2,
    index: 1,
    dt: [0, 0, 0, 1, 0, 25, 0],
    texts: ['d', 'sh', '-s', 'dk', '-proof', '-', '739', '1'],
  },
};

const expand = (row: Record<string, unknown>): readonly LogicalEvent[] => {
  const result = expandPackedRow(row.type as 'text-chunks', row);
  if (isLeft(result)) throw result.left;
  return result.right;
};

describe('packed chunk rows (docs/rules.md#packed-rows)', () => {
  it('expands the example of the format: seq0 + k, time0 plus the first k gaps, text deltas', () => {
    const events = expand(referenceRow);
    expect(events.map((event) => event.seq)).toEqual([84, 85, 86, 87, 88, 89, 90, 91]);
    expect(events.map((event) => event.time - 1785097398382)).toEqual([0, 0, 0, 0, 1, 1, 26, 26]);
    expect(events[1]).toEqual({
      type: 'assistant/chunk',
      seq: 85,
      time: 1785097398382,
      packed: 'text-chunks',
      data: { turn: 1, step: 2, chunk: { type: 'text-delta', index: 1, text: 'sh' } },
    });
  });

  it('expands reasoning rows to reasoning deltas and tool-call rows to tool-call deltas with id and name', () => {
    const [reasoning] = expand({
      type: 'reasoning-chunks',
      seq0: 0,
      time0: 5,
      data: { turn: 1, step: 1, index: 0, dt: [], texts: ['why'] },
    });
    expect(reasoning?.data).toEqual({ turn: 1, step: 1, chunk: { type: 'reasoning-delta', index: 0, text: 'why' } });
    const calls = expand({
      type: 'tool-call-chunks',
      seq0: 3,
      time0: 5,
      data: { turn: 1, step: 1, index: 2, dt: [-1], id: 'c', name: 'bash', args: ['{', '}'] },
    });
    expect(calls.map((event) => event.data)).toEqual([
      { turn: 1, step: 1, chunk: { type: 'tool-call-delta', index: 2, id: 'c', name: 'bash', argumentsDelta: '{' } },
      { turn: 1, step: 1, chunk: { type: 'tool-call-delta', index: 2, id: 'c', name: 'bash', argumentsDelta: '}' } },
    ]);
    expect(calls[1]?.time).toBe(4);
  });

  it.each([
    [{ ...referenceRow, extra: 1 }, '(root)'],
    [{ ...referenceRow, data: { ...referenceRow.data, dt: [0] } }, 'data.dt'],
    [{ ...referenceRow, data: { ...referenceRow.data, texts: [] } }, 'data.texts'],
    [
      { ...referenceRow, data: { ...referenceRow.data, texts: ['a', 2, 'c', 'd', 'e', 'f', 'g', 'h'] } },
      'data.texts[1]',
    ],
    [{ ...referenceRow, seq0: -1 }, 'seq0'],
    [{ ...referenceRow, data: { ...referenceRow.data, turn: 'one' } }, 'data.turn'],
  ])('refuses a malformed row with the field path (%#)', (row, path) => {
    const result = expandPackedRow('text-chunks', row as Record<string, unknown>);
    expect(isLeft(result) && result.left.path).toBe(path);
  });

  it('re-packs expanded members into the same rows, leaving other events as they are', () => {
    const tool = {
      type: 'tool-call-chunks',
      seq0: 92,
      time0: 1785097398500,
      data: { turn: 1, step: 2, index: 2, dt: [3], id: 'c', args: ['{', '}'] },
    };
    const plain: LogicalEvent = {
      type: 'assistant/chunk',
      seq: 94,
      time: 1785097398600,
      data: { turn: 1, step: 2, chunk: { type: 'usage', usage: {} } },
    };
    const packed = packChunkRuns([...expand(referenceRow), ...expand(tool), plain]);
    expect(packed).toEqual([
      { kind: 'row', row: referenceRow },
      { kind: 'row', row: tool },
      { kind: 'event', event: plain },
    ]);
  });

  it('keeps top-level assistant/chunk events that did not come from a row as lines', () => {
    const unpacked = expand(referenceRow).map(({ packed: _packed, ...event }) => event);
    expect(packChunkRuns(unpacked).every((record) => record.kind === 'event')).toBe(true);
    expect(isRight(expandPackedRow('text-chunks', referenceRow))).toBe(true);
  });
});
