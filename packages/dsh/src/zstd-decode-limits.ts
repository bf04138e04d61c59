/**
 * How much a zstd log may decode to (docs/rules.md#zstd-decode-bound). A few bytes of zstd can
 * claim gigabytes (an RLE block of 4 bytes decodes to 128 KiB), so the reader checks what a frame
 * can decode to before decoding it, and counts what the whole stream decoded.
 */
export interface ZstdDecodeLimits {
  /** The most one frame may decode to; a frame is decoded in one piece, so this bounds its memory (default 512 MiB). */
  readonly maxFrameBytes: number;
  /** The most the whole stream may decode to; this bounds the time a file can take (default 64 GiB). */
  readonly maxDecodedBytes: number;
}

export const defaultZstdDecodeLimits: ZstdDecodeLimits = {
  maxFrameBytes: 512 * 1024 ** 2,
  maxDecodedBytes: 64 * 1024 ** 3,
};

/** A byte count as people read it: "512 MiB", "64 GiB", "1000 bytes". */
export const describeBytes = (bytes: number): string => {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
};
