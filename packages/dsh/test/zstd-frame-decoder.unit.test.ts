import { CorruptZstdFrame, ZstdStreamEnd, decodeZstdFrames } from '../src/zstd-frame-decoder';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const decode = async (bytes: Uint8Array, chunk = 1000): Promise<{ text: string; end: ZstdStreamEnd }> => {
  const parts: Uint8Array[] = [];
  const iterator = decodeZstdFrames(chunksOf(bytes, chunk));
  for (let next = await iterator.next(); ; next = await iterator.next()) {
    if (next.done === true) return { text: Buffer.concat(parts).toString(), end: next.value };
    parts.push(next.value);
  }
};

/** Distinct lines, so the frame compresses to several 128 KiB blocks. */
const bulk = (count: number): string => Array.from({ length: count }, (_, k) => `{"n":${k},"v":"${((k * 2654435761) % 1000003).toString(36)}"}\n`).join('');

beforeAll(() => initZstdEncoder());

describe('zstd frame decoding', () => {
  it('decodes concatenated checksummed frames, across any read chunking', async () => {
    const frames = Buffer.concat([encodeZstdFrame(Buffer.from('header\n')), encodeZstdFrame(Buffer.from('a\nb\n')), encodeZstdFrame(Buffer.from(bulk(20000)))]);
    for (const chunk of [13, 4096, 1 << 20]) {
      const { text, end } = await decode(frames, chunk);
      expect(text).toBe(`header\na\nb\n${bulk(20000)}`);
      expect(end).toEqual({ frames: 3, incompleteFrame: false });
    }
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
    const { text, end } = await decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), frame.subarray(0, frame.length - 50)]));
    expect(end.incompleteFrame).toBe(true);
    expect(text.length).toBeGreaterThan(2);
    expect(content.startsWith(text.slice(2))).toBe(true);
    expect(text.length).toBeLessThan(content.length + 2);
  });

  it('rejects a complete frame whose checksum does not match, naming the frame', async () => {
    const frame = Buffer.from(encodeZstdFrame(Buffer.from('a\nb\n')));
    frame[frame.length - 1] = (frame[frame.length - 1] as number) ^ 1;
    const attempt = decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), frame]));
    await expect(attempt).rejects.toBeInstanceOf(CorruptZstdFrame);
    await expect(decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), frame]))).rejects.toThrow(/zstd frame 2 .*checksum mismatch/);
  });

  it('rejects bytes that are not a zstd frame', async () => {
    await expect(decode(Buffer.concat([encodeZstdFrame(Buffer.from('h\n')), Buffer.from('{"not":"zstd"}\n')]))).rejects.toThrow(/not a zstd frame/);
  });

  it('writes frames the zstd format marks as checksummed', () => {
    const frame = encodeZstdFrame(Buffer.from('hello\n'));
    expect(((frame[4] as number) >> 2) & 1).toBe(1);
  });
});
