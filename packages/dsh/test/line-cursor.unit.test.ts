import { LineCursor } from '../src/line-cursor';
import { type LineSplitEnd, SplitLine } from '../src/line-splitter';

const end: LineSplitEnd = { tornTail: undefined, lines: 5, largestLineBytes: 1, peakBufferedBytes: 1 };
const lineAt = (line: number): SplitLine => new SplitLine(line, Buffer.from('x'), 0, 1);

async function* batchesOf(
  batches: readonly (readonly SplitLine[])[],
): AsyncGenerator<readonly SplitLine[], LineSplitEnd> {
  for (const batch of batches) yield batch;
  return end;
}

describe('line cursor', () => {
  it('hands a whole batch on as the splitter made it, not a copy of it', async () => {
    const first = [lineAt(1), lineAt(2)];
    const second = [lineAt(3)];
    const cursor = new LineCursor(batchesOf([first, second]));
    expect(await cursor.nextBatch()).toBe(first);
    expect(await cursor.nextBatch()).toBe(second);
    expect(await cursor.nextBatch()).toEqual([]);
    expect(cursor.end).toBe(end);
  });

  it('hands on the rest of a batch after the lines taken one at a time', async () => {
    const first = [lineAt(1), lineAt(2), lineAt(3)];
    const second = [lineAt(4), lineAt(5)];
    const cursor = new LineCursor(batchesOf([first, second]));
    expect((await cursor.next())?.line).toBe(1);
    expect((await cursor.nextBatch()).map((line) => line.line)).toEqual([2, 3]);
    expect((await cursor.nextBatch()).map((line) => line.line)).toEqual([4, 5]);
    expect(await cursor.next()).toBeUndefined();
  });
});
