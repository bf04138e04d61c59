import * as fc from 'fast-check';
import { createHash } from 'node:crypto';
import { v5, validate, version } from 'uuid';
import { importNamespace, sessionEventId, sessionEventIds, sessionHeaderEventId, uuidV5 } from '../src/event-ids';

/** The id layout written out byte by byte (the definition the fast per-stream ids must match). */
const idFromBytes = (streamKey: string, seq: number): string => {
  const bytes = Buffer.alloc(16);
  createHash('sha1')
    .update(Buffer.from(importNamespace.replace(/-/g, ''), 'hex'))
    .update(`session/${streamKey}`, 'utf8')
    .digest()
    .copy(bytes, 0, 0, 8);
  bytes.writeBigUInt64BE(BigInt(seq), 8);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

describe('deterministic event ids', () => {
  it('are the RFC 4122 uuid v5 the uuid package computes', () => {
    for (const name of ['', 'session/a/0', 'session/{{session:1}}@snapshots/x/12345', 'sessionheader/ü-ñ']) {
      expect(uuidV5(name)).toBe(v5(name, importNamespace));
    }
  });

  it('depend only on the session and seq', () => {
    expect(sessionEventId('s-1', 7)).toBe(sessionEventId('s-1', 7));
    expect(sessionEventId('s-1', 7)).not.toBe(sessionEventId('s-1', 8));
    expect(sessionEventId('s-1', 7)).not.toBe(sessionEventId('s-2', 7));
    expect(sessionHeaderEventId('s-1')).not.toBe(sessionEventId('s-1', 0));
  });
});

describe('session event ids', () => {
  it('are valid uuids (version 8) that sort in seq order within a session', () => {
    const ids = [0, 1, 2, 255, 256, 70_000].map((seq) => sessionEventId('lead-1', seq));
    expect(ids.every((id) => validate(id) && version(id) === 8)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[5]?.slice(-12)).toBe('000000011170');
  });

  it('are the 16 bytes of the stream hash and the 64-bit seq, computed once per stream', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.oneof(fc.nat(), fc.maxSafeNat()), { minLength: 1, maxLength: 5 }),
        (streamKey, seqs) => {
          const idOf = sessionEventIds(streamKey);
          for (const seq of seqs) {
            expect(idOf(seq)).toBe(idFromBytes(streamKey, seq));
            expect(sessionEventId(streamKey, seq)).toBe(idFromBytes(streamKey, seq));
          }
        },
      ),
    );
    expect(sessionEventId('s', Number.MAX_SAFE_INTEGER)).toBe(idFromBytes('s', Number.MAX_SAFE_INTEGER));
  });

  it('are the same for seqs in order across 4096-seq blocks as for seqs asked out of order', () => {
    const idOf = sessionEventIds('lead-1');
    const seqs = [4094, 4095, 4096, 4097, 8191, 8192, 1, 4096, 1_048_575, 1_048_576];
    expect(seqs.map((seq) => idOf(seq))).toEqual(seqs.map((seq) => idFromBytes('lead-1', seq)));
  });

  it('refuse a seq that is not a non-negative safe integer', () => {
    for (const seq of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN])
      expect(() => sessionEventId('s', seq)).toThrow(RangeError);
  });
});
