import { readFileChunks } from './file-chunks';
import type { Compression } from './session-file-name';
import { type ZstdDecodeLimits, defaultZstdDecodeLimits } from './zstd-decode-limits';
import { type ZstdStreamEnd, decodeZstdFrames } from './zstd-frame-decoder';
import { startsWithZstdFrame } from './zstd-frame-format';
import { paceImportRead } from './paced-import';

export interface LogByteSource {
  /** Detected from the content (zstd magic), not from the name. */
  readonly compression: Compression;
  /** The decoded bytes, streamed; read once. */
  readonly bytes: AsyncIterable<Uint8Array>;
  /** After `bytes` is exhausted: how the zstd stream ended (undefined for raw files). */
  readonly zstdEnd: () => ZstdStreamEnd | undefined;
}

export const readChunkBytes = 1024 * 1024;

/** `first` again, then the rest of `chunks`. */
async function* startingWith(first: Buffer | undefined, chunks: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  try {
    if (first !== undefined) yield first;
    yield* chunks;
  } finally {
    await chunks.return(undefined);
  }
}

/** The chunks of `source`, each after the import's pacer (if any) lets it read on (paced-import.ts). */
async function* paced(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    const wait = paceImportRead(chunk.length);
    if (wait !== undefined) await wait;
    yield chunk;
  }
}

/**
 * Open a log file as a stream of decoded bytes: raw JSONL as it is, zstd decoded frame by frame,
 * read `chunkBytes` at a time (a reader that wants only the first lines asks for small reads).
 * `opened`: the file's chunks already opened (and asked for) ahead of this call (log-prefetch.ts).
 */
export const openLogBytes = async (
  file: string,
  limits: ZstdDecodeLimits = defaultZstdDecodeLimits,
  chunkBytes: number = readChunkBytes,
  opened?: Promise<AsyncGenerator<Buffer>>,
): Promise<LogByteSource> => {
  const chunks = await (opened ?? readFileChunks(file, chunkBytes));
  // The first chunk tells the compression (zstd magic): the file is opened and read once.
  const first = await chunks.next().catch(async (error: unknown) => {
    await chunks.return(undefined);
    throw error;
  });
  const head = first.done === true ? undefined : first.value;
  const compression: Compression = head !== undefined && startsWithZstdFrame(head) ? 'zstd' : 'none';
  const raw = startingWith(head, chunks);
  if (compression === 'none') return { compression, bytes: paced(raw), zstdEnd: () => undefined };
  let end: ZstdStreamEnd | undefined;
  async function* decoded(): AsyncGenerator<Uint8Array> {
    end = yield* decodeZstdFrames(raw, limits);
  }
  return { compression, bytes: paced(decoded()), zstdEnd: () => end };
};
