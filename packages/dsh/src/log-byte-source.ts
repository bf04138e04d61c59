import { createReadStream, promises as fs } from 'node:fs';
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

const sniff = async (file: string): Promise<Compression> => {
  const handle = await fs.open(file, 'r');
  try {
    const probe = Buffer.alloc(4);
    const { bytesRead } = await handle.read(probe, 0, 4, 0);
    return startsWithZstdFrame(probe.subarray(0, bytesRead)) ? 'zstd' : 'none';
  } finally {
    await handle.close();
  }
};

/** The chunks of `source`, each after the import's pacer (if any) lets it read on (paced-import.ts). */
async function* paced(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    const wait = paceImportRead(chunk.length);
    if (wait !== undefined) await wait;
    yield chunk;
  }
}

/** Open a log file as a stream of decoded bytes: raw JSONL as it is, zstd decoded frame by frame. */
export const openLogBytes = async (
  file: string,
  limits: ZstdDecodeLimits = defaultZstdDecodeLimits,
): Promise<LogByteSource> => {
  const compression = await sniff(file);
  const raw = createReadStream(file, { highWaterMark: readChunkBytes });
  if (compression === 'none') return { compression, bytes: paced(raw), zstdEnd: () => undefined };
  let end: ZstdStreamEnd | undefined;
  async function* decoded(): AsyncGenerator<Uint8Array> {
    end = yield* decodeZstdFrames(raw, limits);
  }
  return { compression, bytes: paced(decoded()), zstdEnd: () => end };
};
