import { completeFramesLength } from '../src/zstd-complete-frames';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';

const skippable = (payload: number): Uint8Array => {
  const frame = Buffer.alloc(8 + payload);
  frame.writeUInt32LE(0x184d2a50, 0);
  frame.writeUInt32LE(payload, 4);
  return frame;
};

describe('the complete zstd frames at the start of a buffer', () => {
  beforeAll(async () => {
    await initZstdEncoder();
  });

  it('counts every complete frame, skippable frames too, and stops before a frame cut short anywhere', () => {
    const a = encodeZstdFrame(Buffer.from('{"a":1}\n'.repeat(50)));
    const b = skippable(5);
    const c = encodeZstdFrame(Buffer.from('{"c":3}\n'.repeat(20)));
    const all = Buffer.concat([a, b, c]);
    expect(completeFramesLength(all)).toEqual({ bytes: all.length, frames: 3 });
    for (let cut = a.length + b.length; cut < all.length; cut += 1) {
      expect(completeFramesLength(all.subarray(0, cut))).toEqual({ bytes: a.length + b.length, frames: 2 });
    }
    for (let cut = 0; cut < a.length; cut += 1) expect(completeFramesLength(all.subarray(0, cut)).bytes).toBe(0);
  });

  it('refuses bytes that can never become a frame, with the frame index and file offset', () => {
    const a = encodeZstdFrame(Buffer.from('{"a":1}\n'));
    const garbage = Buffer.concat([a, Buffer.from('garbage!')]);
    expect(() => completeFramesLength(garbage, 1000, 4)).toThrow(expect.objectContaining({ code: 'CorruptZstdFrame' }));
    expect(() => completeFramesLength(garbage, 1000, 4)).toThrow(
      `zstd frame 6 at byte ${1000 + a.length}: not a zstd frame`,
    );
  });
});
