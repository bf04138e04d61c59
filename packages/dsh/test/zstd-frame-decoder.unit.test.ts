import { type ZstdStreamEnd, decodeZstdFrames } from '../src/zstd-frame-decoder';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';
import { headerWithoutContentSize, parseFrameHeader } from '../src/zstd-frame-format';
import type { ZstdDecodeLimits } from '../src/zstd-decode-limits';
import { zstdRleBomb } from './zstd-bomb';

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const decode = async (
  bytes: Uint8Array,
  chunk = 1000,
  limits?: ZstdDecodeLimits,
): Promise<{ text: string; end: ZstdStreamEnd }> => {
  const parts: Uint8Array[] = [];
  const iterator = decodeZstdFrames(chunksOf(bytes, chunk), limits);
  for (let next = await iterator.next(); ; next = await iterator.next()) {
    if (next.done === true) return { text: Buffer.concat(parts).toString(), end: next.value };
    parts.push(next.value);
  }
};

/** Distinct lines, so the frame compresses to several 128 KiB blocks. */
const bulk = (count: number): string =>
  Array.from({ length: count }, (_, k) => `{"n":${k},"v":"${((k * 2654435761) % 1000003).toString(36)}"}\n`).join('');

beforeAll(() => initZstdEncoder());

describe('zstd frame decoding', () => {
  it('decodes concatenated checksummed frames, across any read chunking', async () => {
    const frames = Buffer.concat([
      encodeZstdFrame(Buffer.from('header\n')),
      encodeZstdFrame(Buffer.from('a\nb\n')),
      encodeZstdFrame(Buffer.from(bulk(20000))),
    ]);
    for (const chunk of [13, 4096, 1 << 20]) {
      const { text, end } = await decode(frames, chunk);
      expect(text).toBe(`header\na\nb\n${bulk(20000)}`);
      expect(end).toEqual({ frames: 3, incompleteFrame: false });
    }
  });

  it('decodes a frame of RLE blocks within the limits', async () => {
    const { text } = await decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), zstdRleBomb(3)]));
    expect(text).toBe(`h\n${' '.repeat(3 * 128 * 1024)}`);
  });

  it('rejects a frame that can decode to more than the frame limit before decoding it, naming the frame', async () => {
    // 4097 blocks of 128 KiB: over the default 512 MiB from 16 KiB of file.
    const bomb = Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), zstdRleBomb(4097)]);
    await expect(decode(bomb)).rejects.toMatchObject({ code: 'ZstdOverLimit' });
    await expect(decode(bomb)).rejects.toThrow(
      /^zstd frame 2 at byte \d+: decodes to more than 512 MiB, the reader's limit for one frame; nothing was imported$/,
    );
  });

  it('rejects a frame whose header states a content size over the frame limit', async () => {
    const frame = encodeZstdFrame(Buffer.from(bulk(2000)));
    await expect(decode(frame, 1000, { maxFrameBytes: 1024, maxDecodedBytes: 1024 ** 3 })).rejects.toThrow(
      /zstd frame 1 at byte 0: decodes to more than 1 KiB/,
    );
  });

  it('rejects a stream whose frames together decode to more than the stream limit, naming the frame that crosses it', async () => {
    const frames = Buffer.concat([zstdRleBomb(2), zstdRleBomb(2), zstdRleBomb(2)]);
    const limits = { maxFrameBytes: 1024 ** 2, maxDecodedBytes: 5 * 128 * 1024 };
    await expect(decode(frames, 1000, limits)).rejects.toThrow(
      /^zstd frame 3 at byte 28: the stream decodes to more than 640 KiB, the reader's limit for a file; nothing was imported$/,
    );
    expect((await decode(frames, 1000, { ...limits, maxDecodedBytes: 6 * 128 * 1024 })).text).toHaveLength(
      6 * 128 * 1024,
    );
  });

  it('skips skippable frames', async () => {
    const skippable = Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    const { text, end } = await decode(Buffer.concat([skippable, encodeZstdFrame(Buffer.from('x\n'))]));
    expect(text).toBe('x\n');
    expect(end.frames).toBe(2);
  });

  it('keeps the complete blocks of a last frame cut short and reports it incomplete', async () => {
    const content = bulk(40000);
    const frame = encodeZstdFrame(Buffer.from(content));
    const { text, end } = await decode(
      Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), frame.subarray(0, frame.length - 50)]),
    );
    expect(end.incompleteFrame).toBe(true);
    expect(text.length).toBeGreaterThan(2);
    expect(content.startsWith(text.slice(2))).toBe(true);
    expect(text.length).toBeLessThan(content.length + 2);
  });

  it('rejects a complete frame whose checksum does not match, naming the frame', async () => {
    const frame = Buffer.from(encodeZstdFrame(Buffer.from('a\nb\n')));
    frame[frame.length - 1] = (frame[frame.length - 1] as number) ^ 1;
    const attempt = decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), frame]));
    await expect(attempt).rejects.toMatchObject({ code: 'CorruptZstdFrame' });
    await expect(decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), frame]))).rejects.toThrow(
      /zstd frame 2 .*checksum mismatch/,
    );
  });

  it('rejects bytes that are not a zstd frame', async () => {
    await expect(
      decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), Buffer.from('{"not":"zstd"}\n')])),
    ).rejects.toThrow(/not a zstd frame/);
  });

  it('writes frames the zstd format marks as checksummed', () => {
    const frame = encodeZstdFrame(Buffer.from('hello\n'));
    expect(((frame[4] as number) >> 2) & 1).toBe(1);
  });

  it('rejects a complete frame that declares more content than its blocks can hold, before decoding it', async () => {
    const frame = Buffer.from(encodeZstdFrame(Buffer.from('a\nb\n')));
    // Single segment, 1-byte content size (4): claim 200 bytes from one 4-byte raw block.
    expect(parseFrameHeader(frame).contentSize).toBe(4);
    frame[5] = 200;
    await expect(decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), frame]))).rejects.toThrow(
      /zstd frame 2 .*declares 200 bytes, more than its blocks can hold/,
    );
  });
});

describe('frame headers without their content size', () => {
  const magic = [0x28, 0xb5, 0x2f, 0xfd];

  it('gives a single-segment header a window that holds its content, and drops the checksum flag unless kept', () => {
    // descriptor: content-size flag 1 (2 bytes), single segment, checksum; content size 256 + 0x0f00 = 4096.
    const header = Uint8Array.from([...magic, 0b0110_0100, 0x00, 0x0f]);
    expect(parseFrameHeader(header).contentSize).toBe(4096);
    expect([...headerWithoutContentSize(header, true)]).toEqual([...magic, 0b0000_0100, (12 - 10) << 3]);
    expect([...headerWithoutContentSize(header, false)]).toEqual([...magic, 0, (12 - 10) << 3]);
  });

  it('keeps the window descriptor and the dictionary id of a multi-segment header', () => {
    // descriptor: content-size flag 2 (4 bytes), window descriptor 0x58, 1-byte dictionary id 7.
    const header = Uint8Array.from([...magic, 0b1000_0001, 0x58, 7, 1, 2, 3, 4]);
    expect([...headerWithoutContentSize(header, true)]).toEqual([...magic, 0b0000_0001, 0x58, 7]);
  });
});
