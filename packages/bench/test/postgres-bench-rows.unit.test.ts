import { appendsOfWriter, runWriters } from '../src/postgres-bench-rows';

describe('the appends of the PostgreSQL bench', () => {
  it('split evenly across writers, the first writers taking the remainder, each on its own stream from revision 0', () => {
    const shares = Array.from({ length: 3 }, (_, writer) => appendsOfWriter(writer, 3, 8));
    expect(shares.map((share) => share.length)).toEqual([3, 3, 2]);
    expect(shares[1]?.map((append) => [append.stream, append.revision])).toEqual([
      ['bench-writer-1', 0],
      ['bench-writer-1', 1],
      ['bench-writer-1', 2],
    ]);
    expect(new Set(shares.flat().map((append) => append.id)).size).toBe(8);
  });

  it('are written by concurrent writers, each in order', async () => {
    const seen: string[] = [];
    const written = await runWriters(2, 5, async (append) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(`${append.stream}#${append.revision}`);
    });
    expect(written).toBe(5);
    expect(seen.filter((entry) => entry.startsWith('bench-writer-0'))).toEqual([
      'bench-writer-0#0',
      'bench-writer-0#1',
      'bench-writer-0#2',
    ]);
  });
});
