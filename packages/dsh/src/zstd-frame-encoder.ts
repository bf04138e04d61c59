import { compress, init } from '@bokuweb/zstd-wasm';
import { XxHash64, zstdChecksumOf } from './xxhash64';

let ready: Promise<void> | undefined;

/** The wasm encoder must be initialised once before the first frame. */
export const initZstdEncoder = (): Promise<void> => {
  ready ??= init();
  return ready;
};

/** zstd's default level; the reference writer's level is the default and not configurable. */
const defaultLevel = 3;

/**
 * One checksummed zstd frame holding `content`, as the reference writer produces (the wasm
 * encoder writes frames without a checksum, so the flag and the XXH64 trailer are added here).
 * Call `initZstdEncoder()` first.
 */
export const encodeZstdFrame = (content: Uint8Array): Uint8Array => {
  const frame = compress(content, defaultLevel);
  const descriptor = frame[4] as number;
  if ((descriptor & 4) !== 0) return frame;
  const checksum = zstdChecksumOf(new XxHash64().update(content));
  const out = new Uint8Array(frame.length + 4);
  out.set(frame, 0);
  out[4] = descriptor | 4;
  out[frame.length] = checksum & 0xff;
  out[frame.length + 1] = (checksum >>> 8) & 0xff;
  out[frame.length + 2] = (checksum >>> 16) & 0xff;
  out[frame.length + 3] = (checksum >>> 24) & 0xff;
  return out;
};
