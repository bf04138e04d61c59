import { Decompress } from 'fzstd';
import { ByteQueue } from './byte-queue';
import { XxHash64, zstdChecksumOf } from './xxhash64';
import {
  frameHeaderSize, isSkippableMagic, isZstdMagic, maxBlockSize, parseBlockHeader, parseFrameHeader,
} from './zstd-frame-format';

/** A complete frame failed its structure, decompression or checksum check: the file is corrupt. */
export class CorruptZstdFrame extends Error {
  override readonly name = 'CorruptZstdFrame';
  constructor(
    readonly frameIndex: number,
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`zstd frame ${frameIndex + 1} at byte ${offset}: ${detail}`);
  }
}

export interface ZstdStreamEnd {
  /** Complete frames decoded (skippable frames included). */
  readonly frames: number;
  /** The file ended inside a frame; the blocks decoded before the cut were emitted. */
  readonly incompleteFrame: boolean;
}

/** fzstd signals "needs more input" with code 5 (UnexpectedEOF). */
const isUnexpectedEof = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === 5;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Decode concatenated zstd frames block by block, so memory stays bounded by a block (128 KiB)
 * and the zstd window rather than by a frame or the file. Frame boundaries are found here
 * (fzstd does not report them), so a last frame cut short by a crash is told apart from a
 * corrupt one: its complete blocks still count, as the reference requires.
 */
export async function* decodeZstdFrames(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, ZstdStreamEnd> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    return yield* decodeFrames(iterator);
  } finally {
    // A reader that stops early (header only, maxEvents) must release the file.
    await iterator.return?.();
  }
}

async function* decodeFrames(iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array, ZstdStreamEnd> {
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
  for (;;) {
    if (!(await fill(1))) return { frames, incompleteFrame: false };
    const frameOffset = queue.consumed;
    const corrupt = (detail: string): CorruptZstdFrame => new CorruptZstdFrame(frames, frameOffset, detail);
    if (!(await fill(4))) return { frames, incompleteFrame: true };
    const magic = (queue.peekByte(0) | (queue.peekByte(1) << 8) | (queue.peekByte(2) << 16) | (queue.peekByte(3) << 24)) >>> 0;

    if (isSkippableMagic(magic)) {
      if (!(await fill(8))) return { frames, incompleteFrame: true };
      const header = queue.take(8);
      let left = ((header[4] as number) | ((header[5] as number) << 8) | ((header[6] as number) << 16) | ((header[7] as number) << 24)) >>> 0;
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

    const hash = new XxHash64();
    const output: Uint8Array[] = [];
    let decodedBytes = 0;
    const decompressor = new Decompress((data) => {
      if (data.length === 0) return;
      const copy = data.slice(); // fzstd reuses its window buffer
      hash.update(copy);
      decodedBytes += copy.length;
      output.push(copy);
    });
    const push = (bytes: Uint8Array, final: boolean): void => {
      try {
        decompressor.push(bytes, final);
      } catch (error) {
        throw corrupt(`decompression failed: ${describe(error)}`);
      }
    };
    push(header, false);

    for (;;) {
      if (!(await fill(3))) {
        yield* flushIncomplete(decompressor, output, corrupt);
        return { frames, incompleteFrame: true };
      }
      const block = parseBlockHeader(queue.peekByte(0), queue.peekByte(1), queue.peekByte(2));
      if (block.type === 'reserved') throw corrupt('reserved block type');
      if (block.declaredSize > maxBlockSize) throw corrupt(`block of ${block.declaredSize} bytes exceeds 128 KiB`);
      const trailer = block.last && info.hasChecksum ? 4 : 0;
      if (!(await fill(3 + block.contentBytes + trailer))) {
        yield* flushIncomplete(decompressor, output, corrupt);
        return { frames, incompleteFrame: true };
      }
      const blockBytes = queue.take(3 + block.contentBytes);
      if (!block.last) {
        push(blockBytes, false);
        yield* output.splice(0);
        continue;
      }
      const checksum = trailer === 0 ? undefined : queue.take(4).slice();
      // fzstd expects the checksum bytes before it calls the frame final; it does not verify them.
      const tail = checksum === undefined ? blockBytes : concat(blockBytes, checksum);
      push(tail, true);
      if (checksum !== undefined) {
        const stored = ((checksum[0] as number) | ((checksum[1] as number) << 8) | ((checksum[2] as number) << 16) | ((checksum[3] as number) << 24)) >>> 0;
        const actual = zstdChecksumOf(hash);
        if (stored !== actual) throw corrupt(`checksum mismatch (stored 0x${stored.toString(16)}, content 0x${actual.toString(16)})`);
      }
      if (info.contentSize !== undefined && info.contentSize !== decodedBytes) {
        throw corrupt(`frame declares ${info.contentSize} bytes but decodes to ${decodedBytes}`);
      }
      yield* output.splice(0);
      frames += 1;
      break;
    }
  }
}

/** The file ended inside a frame: decode what fzstd still holds, keep what complete blocks gave. */
function* flushIncomplete(decompressor: Decompress, output: Uint8Array[], corrupt: (detail: string) => Error): Generator<Uint8Array> {
  try {
    // fzstd holds back the first few bytes of a frame until it has 18; `final` makes it decode them.
    decompressor.push(new Uint8Array(0), true);
  } catch (error) {
    // "Needs more input" is the cut itself; anything else is damage inside a complete block.
    if (!isUnexpectedEof(error)) throw corrupt(`decompression failed: ${describe(error)}`);
  }
  yield* output.splice(0);
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
};
