import { type LineSplitEnd, type SplitLine, splitLines } from '../src/line-splitter';

async function* chunksOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const collect = async (
  source: AsyncIterable<Uint8Array>,
  maxLineBytes?: number,
): Promise<{ lines: SplitLine[]; end: LineSplitEnd }> => {
  const lines: SplitLine[] = [];
  const iterator = splitLines(source, maxLineBytes === undefined ? {} : { maxLineBytes });
  for (let next = await iterator.next(); ; next = await iterator.next()) {
    if (next.done === true) return { lines, end: next.value };
    lines.push(...next.value);
  }
};

describe('streaming line splitter', () => {
  it('numbers complete lines from 1 whatever the chunk boundaries', async () => {
    for (const size of [1, 2, 3, 5, 100]) {
      const { lines, end } = await collect(chunksOf('a\nbb\n\nccc\n', size));
      expect(lines.map((line) => [line.line, line.bytes.toString(), line.blankRun ?? 0])).toEqual([
        [1, 'a', 0],
        [2, 'bb', 0],
        [3, '', 1],
        [4, 'ccc', 0],
      ]);
      expect(end.tornTail).toBeUndefined();
    }
  });

  it('gives a run of blank lines in one read as one entry that counts them, keeping the numbering', async () => {
    const { lines, end } = await collect(chunksOf(`a\n${'\n \r\n\t\n'.repeat(1000)}b\n\n`, 1 << 20));
    expect(lines.map(({ line, bytes, blankRun }) => [line, bytes.toString(), blankRun])).toEqual([
      [1, 'a', undefined],
      [2, '', 3000],
      [3002, 'b', undefined],
      [3003, '', 1],
    ]);
    expect(end.lines).toBe(3003);
  });

  it('reports bytes after the last newline as a torn tail and does not yield them', async () => {
    const { lines, end } = await collect(chunksOf('a\n{"type":', 4));
    expect(lines).toHaveLength(1);
    expect(end.tornTail).toEqual({ line: 2, bytes: 8 });
  });

  it('does not buffer a line longer than the limit and reports its size', async () => {
    const { lines } = await collect(chunksOf(`ok\n${'x'.repeat(50)}\nafter\n`, 7), 20);
    expect(lines.map((line) => [line.line, line.bytes.toString(), line.overlongBytes])).toEqual([
      [1, 'ok', undefined],
      [2, '', 50],
      [3, 'after', undefined],
    ]);
  });

  it('yields the complete lines of each read chunk together', async () => {
    const batches: number[] = [];
    const iterator = splitLines(chunksOf('a\nb\nc\nd', 4));
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
      batches.push(next.value.length);
    expect(batches).toEqual([2, 1]);
  });

  it('hands a read chunk of many lines on in batches of at most 256, in order', async () => {
    const text = Array.from({ length: 1000 }, (_, index) => `line ${index}`).join('\n');
    const batches: number[] = [];
    const seen: string[] = [];
    const iterator = splitLines(chunksOf(`${text}\n`, 1024 * 1024));
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      batches.push(next.value.length);
      for (const line of next.value) seen.push(`${line.line}:${line.bytes.toString()}`);
    }
    expect(batches).toEqual([256, 256, 256, 232]);
    expect(seen).toEqual(text.split('\n').map((line, index) => `${index + 1}:${line}`));
  });

  it('holds at most the longest line plus one read chunk, not the whole input', async () => {
    const text = `${Array.from({ length: 2000 }, (_, k) => `line ${k} ${'y'.repeat(k % 50)}`).join('\n')}\n`;
    const { end } = await collect(chunksOf(text, 64));
    expect(end.largestLineBytes).toBeLessThanOrEqual(60);
    expect(end.peakBufferedBytes).toBeLessThanOrEqual(end.largestLineBytes + 64);
    expect(text.length).toBeGreaterThan(50 * end.peakBufferedBytes);
  });

  it('gives a line inside one read as a range of that read buffer, and copies only a line across reads', async () => {
    const reads = [Buffer.from('{"a":1}\n{"b":'), Buffer.from('2}\n{"c":3}\n')];
    async function* source(): AsyncGenerator<Uint8Array> {
      yield* reads;
    }
    const { lines } = await collect(source());
    expect(lines.map((line) => [line.line, line.bytes.toString(), line.length])).toEqual([
      [1, '{"a":1}', 7],
      [2, '{"b":2}', 7],
      [3, '{"c":3}', 7],
    ]);
    const [first, across, last] = lines as [SplitLine, SplitLine, SplitLine];
    expect(first.chunk).toBe(reads[0]);
    expect([first.start, first.end]).toEqual([0, 7]);
    expect(last.chunk).toBe(reads[1]);
    expect([last.start, last.end]).toEqual([3, 10]);
    expect(across.chunk).not.toBe(reads[0]);
    expect(across.chunk).not.toBe(reads[1]);
  });

  it('marks the lines of a read valid UTF-8 only when the read proves it, line by line across reads', async () => {
    const euro = Buffer.from('\u20ac');
    const valid = Buffer.concat([Buffer.from('"'), euro, Buffer.from('"\n"x"\n"'), euro.subarray(0, 1)]);
    const rest = Buffer.concat([euro.subarray(1), Buffer.from('"\n"'), Buffer.from([0xff]), Buffer.from('"\n')]);
    async function* source(): AsyncGenerator<Uint8Array> {
      yield valid;
      yield rest;
    }
    const { lines } = await collect(source());
    expect(lines.map((line) => [line.line, line.text])).toEqual([
      [1, 'utf8'],
      [2, 'utf8'],
      [3, 'utf8'],
      [4, 'unproven'],
    ]);
    expect(lines[2]?.bytes.toString()).toBe('"\u20ac"');
  });

  it('marks the lines of a read ASCII when the whole read is, so they are sliced byte for byte', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('"a"\n"b"\n"c');
      yield Buffer.from('d"\n"\u20ac"\n');
    }
    const { lines } = await collect(source());
    expect(lines.map((line) => [line.line, line.text])).toEqual([
      [1, 'ascii'],
      [2, 'ascii'],
      [3, 'ascii'],
      [4, 'utf8'],
    ]);
  });
});
