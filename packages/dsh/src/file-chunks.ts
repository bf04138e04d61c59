import { promises as fs } from 'node:fs';

/** A read past what the file's size said: small, it only finds the end (or what was appended since). */
const probeBytes = 64 * 1024;

/** What reading chunks needs of an open file (a `FileHandle` has it; tests give their own). */
export interface ChunkSource {
  readonly stat: () => Promise<{ readonly size: number }>;
  readonly read: (
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ) => Promise<{ readonly bytesRead: number }>;
  readonly close: () => Promise<void>;
}

/** A read asked for: its buffer and its outcome, settled either way so an unawaited failure is not unhandled. */
interface PendingRead {
  readonly buffer: Buffer;
  readonly outcome: Promise<{ readonly bytesRead: number } | { readonly failure: unknown }>;
}

const startRead = (source: ChunkSource, size: number, position: number): PendingRead => {
  const buffer = Buffer.allocUnsafeSlow(size);
  const outcome = source.read(buffer, 0, size, position).then(
    ({ bytesRead }) => ({ bytesRead }),
    (failure: unknown) => ({ failure }),
  );
  return { buffer, outcome };
};

/**
 * The chunks of `source`, with the next sized read asked for before the current chunk is handed
 * on, so the disk works while the consumer processes a chunk (one chunk ahead at most: memory
 * stays one chunk over what the consumer holds). The probe past the size the file said is asked
 * for only when the consumer wants it, as it was without read-ahead: what was appended while the
 * last chunk was processed is still found.
 */
export async function* chunksOf(source: ChunkSource, chunkBytes: number): AsyncGenerator<Buffer> {
  let pending: PendingRead | undefined;
  try {
    let left = (await source.stat()).size;
    let position = 0;
    const next = (): PendingRead => startRead(source, left > 0 ? Math.min(chunkBytes, left) : probeBytes, position);
    pending = next();
    for (;;) {
      const current: PendingRead = pending;
      pending = undefined;
      const outcome = await current.outcome;
      if ('failure' in outcome) throw outcome.failure;
      const { bytesRead } = outcome;
      if (bytesRead === 0) return;
      position += bytesRead;
      left -= bytesRead;
      if (left > 0) pending = next();
      yield bytesRead === current.buffer.length ? current.buffer : current.buffer.subarray(0, bytesRead);
      pending ??= next();
    }
  } finally {
    // A read still in flight (the consumer stopped early) settles before its handle closes.
    if (pending !== undefined) await pending.outcome;
    await source.close();
  }
}

/**
 * A file's bytes in chunks of at most `chunkBytes`, read until the end, each chunk in a buffer of
 * its own (lines handed on are ranges of it, so none is reused). Each buffer is sized from what
 * the file's size says is left, so the last one needs no shrinking copy (a `ReadStream` copies
 * every short read into a buffer of its size). The file is opened before the first chunk is
 * asked for, so a file that cannot be opened fails the call, not the first read.
 */
export const readFileChunks = async (file: string, chunkBytes: number): Promise<AsyncGenerator<Buffer>> => {
  const handle = await fs.open(file, 'r');
  return chunksOf(
    {
      stat: () => handle.stat(),
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
      close: () => handle.close(),
    },
    chunkBytes,
  );
};
