import fc from 'fast-check';
import { type StagedRow, packStagedRows, unpackStagedRows } from '../src/staged-row-buffer';

describe('a batch of staged rows as one transferable buffer', () => {
  it('gives back the rows it packed, in order, whatever their text', () => {
    const row = fc.tuple(
      fc.string(),
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.option(fc.string({ unit: 'grapheme' })),
    );
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        const staged = rows.map(([id, type, data, metadata]): StagedRow => [id, type, data, metadata]);
        expect(unpackStagedRows(packStagedRows(staged))).toEqual(staged);
      }),
    );
  });

  it('keeps an empty metadata text apart from none, and grows past its first estimate', () => {
    const wide = '𝄞é✓'.repeat(5000);
    const rows: StagedRow[] = [
      ['a', 't', '{}', ''],
      ['b', 't', wide, null],
    ];
    const buffer = packStagedRows(rows);
    expect(buffer.byteLength).toBe(4 + 2 * 16 + 1 + 1 + 2 + 0 + 1 + 1 + Buffer.byteLength(wide));
    expect(unpackStagedRows(buffer)).toEqual(rows);
  });
});
