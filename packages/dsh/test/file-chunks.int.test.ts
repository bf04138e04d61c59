import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileChunks } from '../src/file-chunks';

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
