import { promises as fs } from 'node:fs';

/** A read past what the file's size said: small, it only finds the end (or what was appended since). */
const probeBytes = 64 * 1024;

/**
 * A file's bytes in chunks of at most `chunkBytes`, read until the end, each chunk in a buffer of
 * its own (lines handed on are ranges of it, so none is reused). Each buffer is sized from what
 * the file's size says is left, so the last one needs no shrinking copy (a `ReadStream` copies
 * every short read into a buffer of its size). The file is opened before the first chunk is
 * asked for, so a file that cannot be opened fails the call, not the first read.
 */
export const readFileChunks = async (file: string, chunkBytes: number): Promise<AsyncGenerator<Buffer>> => {
  const handle = await fs.open(file, 'r');
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      let left = (await handle.stat()).size;
      let position = 0;
      for (;;) {
        const size = left > 0 ? Math.min(chunkBytes, left) : probeBytes;
        const buffer = Buffer.allocUnsafeSlow(size);
        const { bytesRead } = await handle.read(buffer, 0, size, position);
        if (bytesRead === 0) return;
        position += bytesRead;
        left -= bytesRead;
        yield bytesRead === size ? buffer : buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }
  return chunks();
};
