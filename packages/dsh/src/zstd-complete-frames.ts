import { type CorruptZstdFrame, corruptZstdFrame } from './zstd-errors';
import {
  frameHeaderSize,
  isSkippableMagic,
  isZstdMagic,
  maxBlockSize,
  parseBlockHeader,
  parseFrameHeader,
} from './zstd-frame-format';

const word32 = (bytes: Uint8Array, at: number): number =>
  ((bytes[at] as number) |
    ((bytes[at + 1] as number) << 8) |
    ((bytes[at + 2] as number) << 16) |
    ((bytes[at + 3] as number) << 24)) >>>
  0;

/** The end of the frame starting at `at`, or undefined when `bytes` ends inside it. */
const frameEnd = (bytes: Uint8Array, at: number, corrupt: (detail: string) => CorruptZstdFrame): number | undefined => {
  if (at + 4 > bytes.length) return undefined;
  const magic = word32(bytes, at);
  if (isSkippableMagic(magic)) {
    if (at + 8 > bytes.length) return undefined;
    const end = at + 8 + word32(bytes, at + 4);
    return end > bytes.length ? undefined : end;
  }
  if (!isZstdMagic(magic)) throw corrupt(`not a zstd frame (magic 0x${magic.toString(16).padStart(8, '0')})`);
  if (at + 5 > bytes.length) return undefined;
  const { size: headerSize, reservedBitSet } = frameHeaderSize(bytes[at + 4] as number);
  if (reservedBitSet) throw corrupt('reserved bit set in the frame header');
  if (at + headerSize > bytes.length) return undefined;
  const { hasChecksum } = parseFrameHeader(bytes.subarray(at, at + headerSize));
  let position = at + headerSize;
  for (;;) {
    if (position + 3 > bytes.length) return undefined;
    const block = parseBlockHeader(
      bytes[position] as number,
      bytes[position + 1] as number,
      bytes[position + 2] as number,
    );
    if (block.type === 'reserved') throw corrupt('reserved block type');
    if (block.declaredSize > maxBlockSize) throw corrupt(`block of ${block.declaredSize} bytes exceeds 128 KiB`);
    position += 3 + block.contentBytes + (block.last && hasChecksum ? 4 : 0);
    if (position > bytes.length) return undefined;
    if (block.last) return position;
  }
};

/**
 * How many leading bytes of `bytes` are complete zstd (or skippable) frames: a follower decodes
 * those and leaves a frame the writer is still writing for the next read. `offset` is where
 * `bytes` starts in the file and `firstFrame` the index of its first frame (for error messages).
 * A structure that can never become a frame (a bad magic, a reserved bit) throws CorruptZstdFrame.
 */
export const completeFramesLength = (
  bytes: Uint8Array,
  offset = 0,
  firstFrame = 0,
): { readonly bytes: number; readonly frames: number } => {
  let at = 0;
  let frames = 0;
  for (;;) {
    const corrupt = (detail: string): CorruptZstdFrame => corruptZstdFrame(firstFrame + frames, offset + at, detail);
    const end = frameEnd(bytes, at, corrupt);
    if (end === undefined) return { bytes: at, frames };
    at = end;
    frames += 1;
  }
};
