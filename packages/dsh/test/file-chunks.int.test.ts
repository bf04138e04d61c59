import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChunkSource, chunksOf, readFileChunks } from '../src/file-chunks';

const collect = async (chunks: AsyncGenerator<Buffer>): Promise<Buffer[]> => {
  const all: Buffer[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
};

describe('reading a file in chunks', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-file-chunks-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  it('gives the whole file in chunks of at most the size asked, each in a buffer of its own and of its size', async () => {
    const file = join(directory, 'log.jsonl');
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, k) => `line ${k}\n`).join(''));
    await fs.writeFile(file, bytes);
    const chunks = await collect(await readFileChunks(file, 4096));
    expect(Buffer.concat(chunks)).toEqual(bytes);
    const sizes = [4096, 4096, bytes.length - 8192];
    expect(chunks.map((chunk) => chunk.length)).toEqual(sizes);
    expect(chunks.map((chunk) => chunk.buffer.byteLength)).toEqual(sizes);
    expect(chunks[0]?.buffer).not.toBe(chunks[1]?.buffer);
  });

  it('reads on to the end when the file grows after it was opened', async () => {
    const file = join(directory, 'log.jsonl');
    await fs.writeFile(file, 'first\n');
    const chunks = await readFileChunks(file, 4096);
    await fs.appendFile(file, 'second\n');
    expect(Buffer.concat(await collect(chunks)).toString()).toBe('first\nsecond\n');
  });

  it('gives nothing for an empty file, and fails the call for a file that cannot be opened', async () => {
    const file = join(directory, 'empty.jsonl');
    await fs.writeFile(file, '');
    expect(await collect(await readFileChunks(file, 4096))).toEqual([]);
    await expect(readFileChunks(join(directory, 'missing.jsonl'), 4096)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

/** A `ChunkSource` over `bytes` whose reads settle only when the test says, and that records what was asked. */
const heldSource = (bytes: Buffer, failAt?: number) => {
  const asked: { position: number; length: number; settle: () => void }[] = [];
  let closedWithReadsInFlight: number | undefined;
  let inFlight = 0;
  const source: ChunkSource = {
    stat: async () => ({ size: bytes.length }),
    read: (buffer, offset, length, position) => {
      inFlight += 1;
      return new Promise((resolve, reject) => {
        asked.push({
          position,
          length,
          settle: () => {
            inFlight -= 1;
            if (position === failAt) {
              reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
              return;
            }
            const bytesRead = bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length));
            resolve({ bytesRead });
          },
        });
      });
    },
    close: async () => {
      closedWithReadsInFlight = inFlight;
    },
  };
  return { source, asked, closedWithReadsInFlight: () => closedWithReadsInFlight };
};

/** Lets the generator run until it waits on a read the test holds. */
const settleMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('reading a file in chunks with the next read in flight', () => {
  const bytes = Buffer.from('a'.repeat(10));

  it('asks for the next chunk before the current one is handed on, and only one ahead', async () => {
    const { source, asked } = heldSource(bytes);
    const chunks = chunksOf(source, 4);
    const first = chunks.next();
    await settleMicrotasks();
    expect(asked.map(({ position }) => position)).toEqual([0]);
    asked[0]?.settle();
    expect((await first).value).toEqual(bytes.subarray(0, 4));
    // The consumer holds chunk 0 and has not asked again: chunk 1 is already being read, chunk 2 not.
    expect(asked.map(({ position, length }) => [position, length])).toEqual([
      [0, 4],
      [4, 4],
    ]);
    asked[1]?.settle();
    expect((await chunks.next()).value).toEqual(bytes.subarray(4, 8));
    expect(asked.map(({ position }) => position)).toEqual([0, 4, 8]);
  });

  it('asks for the probe past the end only when the consumer asks for more', async () => {
    const { source, asked } = heldSource(bytes);
    const chunks = chunksOf(source, 8);
    const first = chunks.next();
    await settleMicrotasks();
    asked[0]?.settle();
    await first;
    asked[1]?.settle();
    const second = chunks.next();
    expect((await second).value).toEqual(bytes.subarray(8, 10));
    expect(asked.map(({ position, length }) => [position, length])).toEqual([
      [0, 8],
      [8, 2],
    ]);
    const end = chunks.next();
    await settleMicrotasks();
    expect(asked.map(({ position, length }) => [position, length])).toEqual([
      [0, 8],
      [8, 2],
      [10, 64 * 1024],
    ]);
    asked[2]?.settle();
    expect((await end).done).toBe(true);
  });

  it('fails the consumer on the chunk whose read failed, after the chunks before it, and closes the file', async () => {
    const { source, asked, closedWithReadsInFlight } = heldSource(bytes, 4);
    const chunks = chunksOf(source, 4);
    const first = chunks.next();
    await settleMicrotasks();
    asked[0]?.settle();
    expect((await first).value).toEqual(bytes.subarray(0, 4));
    // The read ahead fails while the consumer still holds chunk 0: not an unhandled rejection.
    asked[1]?.settle();
    await settleMicrotasks();
    await expect(chunks.next()).rejects.toMatchObject({ code: 'EIO' });
    expect(closedWithReadsInFlight()).toBe(0);
  });

  it('lets the read in flight settle before the file is closed when the consumer stops early', async () => {
    const { source, asked, closedWithReadsInFlight } = heldSource(bytes);
    const chunks = chunksOf(source, 4);
    const first = chunks.next();
    await settleMicrotasks();
    asked[0]?.settle();
    await first;
    const stopped = chunks.return(undefined);
    await settleMicrotasks();
    expect(closedWithReadsInFlight()).toBeUndefined();
    asked[1]?.settle();
    await stopped;
    expect(closedWithReadsInFlight()).toBe(0);
  });
});
