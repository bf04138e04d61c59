import { XxHash64 } from '../src/xxhash64';

const hex = ([high, low]: [number, number]): string => high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
const hashOf = (text: string): string => hex(new XxHash64().update(Buffer.from(text)).digest());

describe('XXH64 (zstd frame checksums)', () => {
  it.each([
    ['', 'ef46db3751d8e999'],
    ['a', 'd24ec4f1a98c6e5b'],
    ['abc', '44bc2cf5ad770999'],
    ['Nobody inspects the spammish repetition', 'fbcea83c8a378bf1'],
  ])('hashes %j to the published XXH64 value', (text, expected) => {
    expect(hashOf(text)).toBe(expected);
  });

  it('gives the same digest whatever the chunking of the input', () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, k) => String.fromCharCode(32 + ((k * 31) % 90))).join(''));
    const whole = hex(new XxHash64().update(bytes).digest());
    for (const size of [1, 7, 31, 32, 33, 999]) {
      const hash = new XxHash64();
      for (let at = 0; at < bytes.length; at += size) hash.update(bytes.subarray(at, at + size));
      expect(hex(hash.digest())).toBe(whole);
    }
  });
});
