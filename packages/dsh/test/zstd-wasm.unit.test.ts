import { zstdCodec } from '../src/zstd-wasm';

describe('the zstd codec', () => {
  it.each([
    ['', '51d8e999'],
    ['a', 'a98c6e5b'],
    ['abc', 'ad770999'],
    ['Nobody inspects the spammish repetition', '8a378bf1'],
  ])('checksums %j with the low 32 bits of its published XXH64 value', async (text, expected) => {
    const codec = await zstdCodec();
    expect(codec.frameChecksum(Buffer.from(text)).toString(16).padStart(8, '0')).toBe(expected);
  });

  it('decodes what it encodes', async () => {
    const codec = await zstdCodec();
    const content = Buffer.from('{"type":"turn/start"}\n'.repeat(1000));
    expect(Buffer.from(codec.decompress(codec.compress(content), content.length)).equals(content)).toBe(true);
  });
});
