import { zstdCodec } from './zstd-wasm';

let codec: Awaited<ReturnType<typeof zstdCodec>> | undefined;

/** The wasm encoder and the checksum must be loaded once before the first frame. */
export const initZstdEncoder = async (): Promise<void> => {
  codec ??= await zstdCodec();
};

/**
 * One checksummed zstd frame holding `content`, as docs/rules.md#zstd-frames describes (libzstd's
 * one-shot encoder writes no checksum, so the flag and the XXH64 trailer are added here).
 * Call `initZstdEncoder()` first.
 */
export const encodeZstdFrame = (content: Uint8Array): Uint8Array => {
  if (codec === undefined) throw new Error('encodeZstdFrame: call initZstdEncoder() first');
  const frame = codec.compress(content);
  const descriptor = frame[4] as number;
  if ((descriptor & 4) !== 0) return frame;
  const checksum = codec.frameChecksum(content);
  const out = new Uint8Array(frame.length + 4);
  out.set(frame, 0);
  out[4] = descriptor | 4;
  out[frame.length] = checksum & 0xff;
  out[frame.length + 1] = (checksum >>> 8) & 0xff;
  out[frame.length + 2] = (checksum >>> 16) & 0xff;
  out[frame.length + 3] = (checksum >>> 24) & 0xff;
  return out;
};
