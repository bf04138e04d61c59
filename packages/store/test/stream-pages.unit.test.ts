import { type ReadStreamOptions, type RecordedEvent, readStreamSlice, streamPages } from '@teamlog/store';

/* A store reading a stream in pages returns what a read of the whole stream in memory returns. */

const revisions = Array.from({ length: 7 }, (_, index) => BigInt(index));
const last = 6n;

/** A page as a database would answer it, counting the queries. */
const pagedRead = async (options: ReadStreamOptions, pageSize: number): Promise<{ read: bigint[]; pages: number }> => {
  let pages = 0;
  const read: bigint[] = [];
  const page = (direction: 'forwards' | 'backwards', from: bigint, to: bigint, count: number): bigint[] => {
    pages += 1;
    const rows =
      direction === 'forwards'
        ? revisions.filter((r) => r >= from && r <= to)
        : revisions.filter((r) => r <= from).reverse();
    return rows.slice(0, count);
  };
  for await (const rows of streamPages(last, options, pageSize, (row) => row, page)) read.push(...rows);
  return { read, pages };
};

const sliced = (options: ReadStreamOptions): bigint[] =>
  [
    ...readStreamSlice(
      revisions.map((revision) => ({ revision }) as RecordedEvent),
      options,
    ),
  ].map((event) => event.revision);

describe('streamPages', () => {
  const cases: ReadStreamOptions[] = [];
  for (const direction of ['forwards', 'backwards'] as const) {
    for (const from of [undefined, 'start', 'end', 0n, 3n, 6n, 9n] as const) {
      for (const maxCount of [undefined, 0, 2, 5, 20]) {
        cases.push({
          direction,
          ...(from === undefined ? {} : { from }),
          ...(maxCount === undefined ? {} : { maxCount }),
        });
      }
    }
  }

  it.each(
    cases.map(
      (options) =>
        [JSON.stringify(options, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value)), options] as const,
    ),
  )('reads %s in pages of 2 as a read of the whole stream does', async (_name, options) => {
    expect((await pagedRead(options, 2)).read).toEqual(sliced(options));
  });

  it('asks for no page more than it needs', async () => {
    expect((await pagedRead({ maxCount: 4 }, 2)).pages).toBe(2);
    expect((await pagedRead({ from: 'end' }, 2)).pages).toBe(0);
    expect((await pagedRead({ direction: 'backwards' }, 3)).pages).toBe(3);
  });
});
