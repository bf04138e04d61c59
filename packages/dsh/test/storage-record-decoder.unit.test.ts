import { isLeft } from 'fp-ts/Either';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeStorageRecord, plainEventOf } from '../src/storage-record-decoder';

const v0 = { formatVersion: 0 as const, normalised: false, nextSeq: 0 };

describe('storage record decoding', () => {
  it('keeps envelope keys the format does not define in extra (docs/rules.md#envelope)', () => {
    const result = decodeStorageRecord({ type: 'x/y', seq: 0, time: 1, data: null, writer: { name: 'w' } }, v0);
    expect(result).toEqual({
      _tag: 'Right',
      right: [{ type: 'x/y', seq: 0, time: 1, data: null, extra: { writer: { name: 'w' } } }],
    });
  });

  it('keeps an unknown "__proto__" envelope key as an ordinary key of extra', () => {
    const result = decodeStorageRecord(
      JSON.parse('{"type":"x/y","seq":0,"time":1,"data":1,"__proto__":{"polluted":true}}'),
      v0,
    );
    const extra = !isLeft(result) ? result.right[0]?.extra : undefined;
    expect(extra !== undefined && Object.keys(extra)).toEqual(['__proto__']);
    expect(extra !== undefined && Object.getPrototypeOf(extra)).toBe(Object.prototype);
    expect(JSON.stringify(extra)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('expands sourceEventSeqs ranges against the event seq', () => {
    const result = decodeStorageRecord(
      { type: 'tool/result', seq: 9, time: 1, data: {}, sourceEventSeqs: [[2, 5], 7] },
      { ...v0, nextSeq: 9 },
    );
    expect(!isLeft(result) && result.right[0]?.sourceEventSeqs).toEqual([2, 3, 4, 5, 7]);
  });

  it.each([
    [{ type: 'turn/start', time: 1, data: {} }, 'seq'],
    [{ type: 'turn/start', seq: 'x', time: 1, data: {} }, 'seq'],
    [{ type: 'turn/start', seq: 0, time: 'late', data: {} }, 'time'],
    [{ type: 'turn/start', seq: 0, time: 1 }, 'data'],
    [{ type: '', seq: 0, time: 1, data: {} }, 'type'],
    [{ type: 'turn/start', seq: 0, time: 1, data: {}, surfaceOp: 'prepend' }, 'surfaceOp'],
  ])('refuses a malformed envelope with its field path (%#)', (record, path) => {
    const result = decodeStorageRecord(record, v0);
    expect(isLeft(result) && result.left.path).toBe(path);
  });

  it('reads a normalised fixture line with the seq given by position and refuses a stray seq there', () => {
    const context = { formatVersion: 4 as const, normalised: true, nextSeq: 12 };
    expect(decodeStorageRecord({ type: 'turn/start', data: { turn: 1 } }, context)).toEqual({
      _tag: 'Right',
      right: [{ type: 'turn/start', seq: 12, time: 0, data: { turn: 1 } }],
    });
    const stray = decodeStorageRecord({ type: 'turn/start', seq: 12, data: { turn: 1 } }, context);
    expect(isLeft(stray) && stray.left.path).toBe('seq');
  });

  it('treats packed rows as rows only in V0/V1', () => {
    const row = { type: 'text-chunks', seq0: 0, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [], texts: ['a'] } };
    expect(isLeft(decodeStorageRecord(row, v0))).toBe(false);
    const v2 = decodeStorageRecord(row, { ...v0, formatVersion: 2 });
    expect(isLeft(v2) && v2.left.path).toBe('seq');
  });
});

describe('the plain event line of the hot path', () => {
  const v4 = { formatVersion: 4 as const, normalised: false };
  const plain = (value: unknown, context: { formatVersion: 0 | 4; normalised: boolean } = v4) =>
    plainEventOf(value, context.formatVersion, context.normalised);

  it('is the event the full decode gives, for every event line of the fixtures it takes', () => {
    const root = join(__dirname, '..', '..', '..', 'fixtures');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.jsonl'));
    let taken = 0;
    for (const file of files) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n').slice(1);
      for (const text of lines) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          continue;
        }
        const event = plain(value, { formatVersion: 0, normalised: false });
        if (event === undefined) continue;
        taken += 1;
        const decoded = decodeStorageRecord(value, { formatVersion: 0, normalised: false, nextSeq: event.seq });
        expect({ file, decoded }).toEqual({ file, decoded: { _tag: 'Right', right: [event] } });
        // The parsed line itself, keys in the line's order: every encoder of a logical event fixes its own order.
        expect(event).toBe(value);
      }
    }
    expect(taken).toBeGreaterThan(1000);
  });

  it('leaves every other line to the full decode: extra keys, ranges or unordered sourceEventSeqs, packed rows, normalised fixtures, bad envelopes', () => {
    const line = { type: 'x/y', seq: 0, time: 1, data: {} };
    expect(plain(line)).toBe(line);
    expect(plain({ ...line, writer: 'w' })).toBeUndefined();
    expect(plain(JSON.parse('{"type":"x/y","seq":0,"time":1,"data":1,"__proto__":{}}'))).toBeUndefined();
    expect(plain({ ...line, seq: 5, sourceEventSeqs: [1, 3] })).toEqual({ ...line, seq: 5, sourceEventSeqs: [1, 3] });
    expect(plain({ ...line, seq: 5, sourceEventSeqs: [[1, 3]] })).toBeUndefined();
    expect(plain({ ...line, seq: 5, sourceEventSeqs: [3, 1] })).toBeUndefined();
    expect(plain({ ...line, seq: 5, sourceEventSeqs: [1, 5] })).toBeUndefined();
    expect(plain({ ...line, type: 'text-chunks' }, { formatVersion: 0, normalised: false })).toBeUndefined();
    expect(plain({ type: 'x/y', data: {} }, { formatVersion: 4, normalised: true })).toBeUndefined();
    expect(plain({ ...line, type: '' })).toBeUndefined();
    expect(plain({ ...line, seq: -1 })).toBeUndefined();
    expect(plain({ ...line, ignorable: false })).toBeUndefined();
    expect(plain([line])).toBeUndefined();
  });
});
