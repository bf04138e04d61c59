import { ByteQueue } from './byte-queue';
import { type ZstdDecodeLimits, defaultZstdDecodeLimits, describeBytes } from './zstd-decode-limits';
import { type CorruptZstdFrame, type ZstdOverLimit, corruptZstdFrame, zstdOverLimit } from './zstd-errors';
import { describeZstdError } from './zstd-error';
import {
  frameHeaderSize,
  headerWithoutContentSize,
  isSkippableMagic,
  isZstdMagic,
  markedLastBlock,
  maxBlockSize,
  parseBlockHeader,
  parseFrameHeader,
} from './zstd-frame-format';
import { type ZstdCodec, zstdCodec } from './zstd-wasm';

export interface ZstdStreamEnd {
  /** Complete frames decoded (skippable frames included). */
  readonly frames: number;
  /** The file ended inside a frame; the blocks decoded before the cut were emitted. */
  readonly incompleteFrame: boolean;
}

/** The blocks of one frame read so far, and the most they can decode to. */
interface FrameBlocks {
  readonly parts: Uint8Array[];
  /** Where each complete block's 3-byte header starts within `parts` (index of its part). */
  lastBlockPart: number | undefined;
  bound: number;
}

/**
 * Decode concatenated zstd frames, one frame at a time (a frame is one append batch of the
 * writer, so memory is bounded by the largest batch, not by the file). Frame and block boundaries
 * are found here, so a last frame cut short by a crash is told apart from a corrupt one: its
 * complete blocks still count, as docs/rules.md#zstd-torn-frame requires. libzstd checks each
 * complete frame's checksum; the content size the header declares is checked here.
 */
export async function* decodeZstdFrames(
  source: AsyncIterable<Uint8Array>,
  limits: ZstdDecodeLimits = defaultZstdDecodeLimits,
): AsyncGenerator<Uint8Array, ZstdStreamEnd> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    return yield* decodeFrames(iterator, await zstdCodec(), limits);
  } finally {
    // A reader that stops early (header only, maxEvents) must release the file.
    await iterator.return?.();
  }
}

async function* decodeFrames(
  iterator: AsyncIterator<Uint8Array>,
  codec: ZstdCodec,
  limits: ZstdDecodeLimits,
): AsyncGenerator<Uint8Array, ZstdStreamEnd> {
  const queue = new ByteQueue();
  let ended = false;
  const fill = async (needed: number): Promise<boolean> => {
    while (queue.available < needed && !ended) {
      const next = await iterator.next();
      if (next.done === true) ended = true;
      else queue.push(next.value);
    }
    return queue.available >= needed;
  };

  let frames = 0;
  let decodedBytes = 0;
  for (;;) {
    if (!(await fill(1))) return { frames, incompleteFrame: false };
    const frameOffset = queue.consumed;
    const corrupt = (detail: string): CorruptZstdFrame => corruptZstdFrame(frames, frameOffset, detail);
    const overLimit = (detail: string): ZstdOverLimit =>
      zstdOverLimit(frames, frameOffset, `${detail}; nothing was imported`);
    // Checked before decoding, from what the frame says it holds or can hold: nothing over the limit is ever allocated.
    const checkBound = (bound: number): void => {
      if (bound > limits.maxFrameBytes)
        throw overLimit(
          `decodes to more than ${describeBytes(limits.maxFrameBytes)}, the reader's limit for one frame`,
        );
      if (decodedBytes + bound > limits.maxDecodedBytes)
        throw overLimit(
          `the stream decodes to more than ${describeBytes(limits.maxDecodedBytes)}, the reader's limit for a file`,
        );
    };
    if (!(await fill(4))) return { frames, incompleteFrame: true };
    const magic =
      (queue.peekByte(0) | (queue.peekByte(1) << 8) | (queue.peekByte(2) << 16) | (queue.peekByte(3) << 24)) >>> 0;

    if (isSkippableMagic(magic)) {
      if (!(await fill(8))) return { frames, incompleteFrame: true };
      const header = queue.take(8);
      let left =
        ((header[4] as number) |
          ((header[5] as number) << 8) |
          ((header[6] as number) << 16) |
          ((header[7] as number) << 24)) >>>
        0;
      while (left > 0) {
        if (!(await fill(1))) return { frames, incompleteFrame: true };
        left -= queue.skip(left);
      }
      frames += 1;
      continue;
    }
    if (!isZstdMagic(magic)) throw corrupt(`not a zstd frame (magic 0x${magic.toString(16).padStart(8, '0')})`);

    if (!(await fill(5))) return { frames, incompleteFrame: true };
    const { size: headerSize, reservedBitSet } = frameHeaderSize(queue.peekByte(4));
    if (reservedBitSet) throw corrupt('reserved bit set in the frame header');
    if (!(await fill(headerSize))) return { frames, incompleteFrame: true };
    const header = queue.take(headerSize).slice();
    const info = parseFrameHeader(header);
    if (info.contentSize !== undefined) checkBound(info.contentSize);
    const blocks: FrameBlocks = { parts: [], lastBlockPart: undefined, bound: 0 };

    for (;;) {
      if (!(await fill(3))) {
        yield* decodeCut(codec, header, blocks, corrupt);
        return { frames, incompleteFrame: true };
      }
      const block = parseBlockHeader(queue.peekByte(0), queue.peekByte(1), queue.peekByte(2));
      if (block.type === 'reserved') throw corrupt('reserved block type');
      if (block.declaredSize > maxBlockSize) throw corrupt(`block of ${block.declaredSize} bytes exceeds 128 KiB`);
      const trailer = block.last && info.hasChecksum ? 4 : 0;
      if (!(await fill(3 + block.contentBytes + trailer))) {
        yield* decodeCut(codec, header, blocks, corrupt);
        return { frames, incompleteFrame: true };
      }
      blocks.lastBlockPart = blocks.parts.length;
      blocks.parts.push(queue.take(3 + block.contentBytes + trailer).slice());
      // A compressed block decodes to at most 128 KiB; raw and RLE blocks to their declared size.
      blocks.bound += block.type === 'compressed' ? maxBlockSize : block.declaredSize;
      checkBound(blocks.bound);
      if (!block.last) continue;
      if (info.contentSize !== undefined && info.contentSize > blocks.bound) {
        throw corrupt(`frame declares ${info.contentSize} bytes, more than its blocks can hold (${blocks.bound})`);
      }
      const content = decodeFrame(
        codec,
        [headerWithoutContentSize(header, true), ...blocks.parts],
        blocks.bound,
        corrupt,
      );
      if (info.contentSize !== undefined && info.contentSize !== content.length) {
        throw corrupt(`frame declares ${info.contentSize} bytes but decodes to ${content.length}`);
      }
      decodedBytes += content.length;
      if (content.length > 0) yield content;
      frames += 1;
      break;
    }
  }
}

/**
 * The file ended inside a frame: decode its complete blocks as a frame of their own (the last of
 * them marked last, no checksum: the stored one covers the whole frame), and keep what they give.
 */
function* decodeCut(
  codec: ZstdCodec,
  header: Uint8Array,
  blocks: FrameBlocks,
  corrupt: (detail: string) => Error,
): Generator<Uint8Array> {
  if (blocks.lastBlockPart === undefined) return;
  const parts = blocks.parts.slice();
  const last = (parts[blocks.lastBlockPart] as Uint8Array).slice();
  last[0] = markedLastBlock(last[0] as number);
  parts[blocks.lastBlockPart] = last;
  const content = decodeFrame(codec, [headerWithoutContentSize(header, false), ...parts], blocks.bound, corrupt);
  if (content.length > 0) yield content;
}

const decodeFrame = (
  codec: ZstdCodec,
  parts: readonly Uint8Array[],
  bound: number,
  corrupt: (detail: string) => Error,
): Uint8Array => {
  try {
    return codec.decompress(Buffer.concat(parts), bound);
  } catch (error) {
    throw corrupt(`decompression failed: ${describeZstdError(error)}`);
  }
};
