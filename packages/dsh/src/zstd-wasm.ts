/*
 * The zstd library (libzstd compiled to wasm, for reading and writing) and XXH64 (for the frame
 * checksum the writer adds). Both load a wasm module once, asynchronously, and their JavaScript
 * is imported then too: a process that never meets a .zst log loads neither.
 */

export interface ZstdCodec {
  /** One frame at zstd's default level (content size in the header, no checksum). */
  readonly compress: (content: Uint8Array) => Uint8Array;
  /**
   * Decode one complete frame (libzstd verifies its checksum when the frame has one). `bound`
   * is the output buffer's size when the header states no content size.
   */
  readonly decompress: (frame: Uint8Array, bound: number) => Uint8Array;
  /** The low 32 bits of XXH64 (seed 0): the checksum zstd stores after a frame. */
  readonly frameChecksum: (content: Uint8Array) => number;
}

/** zstd's default level, as the harness's writer uses (docs/rules.md#zstd-frames). */
const defaultLevel = 3;

let loading: Promise<ZstdCodec> | undefined;

const load = async (): Promise<ZstdCodec> => {
  const [{ compress, decompress, init }, { default: xxhash }] = await Promise.all([
    import('@bokuweb/zstd-wasm'),
    import('xxhash-wasm'),
  ]);
  const [hash] = await Promise.all([xxhash(), init()]);
  return {
    compress: (content) => compress(content, defaultLevel),
    decompress: (frame, bound) => decompress(frame, { defaultHeapSize: Math.max(bound, 1) }),
    frameChecksum: (content) => Number(hash.h64Raw(content) & 0xffffffffn),
  };
};

/** The codec, loaded on first use. */
export const zstdCodec = (): Promise<ZstdCodec> => {
  loading ??= load();
  return loading;
};
