import * as fc from 'fast-check';
import { createHash } from 'node:crypto';
import { AppendChunker, chunkLineOf } from '../src/append-chunker';

/** The fingerprint's definition: SHA-256 of each line followed by `\n`. */
const canonicalDigest = (lines: readonly string[]): string =>
  createHash('sha256')
    .update(lines.map((line) => `${line}\n`).join(''))
    .digest('hex');

type Layout = 'own buffers' | 'one buffer' | 'one buffer, other separators' | 'pooled';

/** The same lines laid out in memory as a reader might hand them over. */
const layOut = (lines: readonly string[], layout: Layout): Uint8Array[] => {
  switch (layout) {
    case 'own buffers':
      return lines.map((line) => new Uint8Array(Buffer.from(line)));
    case 'pooled':
      // Small Buffers share Node's pool: neighbours, but not separated by their newline.
      return lines.map((line) => Buffer.from(line));
    case 'one buffer':
    case 'one buffer, other separators': {
      const separator = layout === 'one buffer' ? '\n' : ';';
      const whole = Buffer.from(lines.join(separator));
      let offset = 0;
      return lines.map((line) => {
        const bytes = whole.subarray(offset, offset + Buffer.byteLength(line));
        offset += bytes.length + 1;
        return bytes;
      });
    }
    default: {
      const unreachable: never = layout;
      return unreachable;
    }
  }
};

describe('append chunk fingerprints', () => {
  it('are the SHA-256 of the lines with their newlines, however the lines lie in memory', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme' }).map((line) => line.replace(/\n/g, ' ')),
          { minLength: 1, maxLength: 30 },
        ),
        fc.constantFrom<Layout>('own buffers', 'one buffer', 'one buffer, other separators', 'pooled'),
        fc.integer({ min: 1, max: 8 }),
        (lines, layout, batchEvents) => {
          const chunker = new AppendChunker<number>({ batchEvents, batchBytes: Number.MAX_SAFE_INTEGER });
          const digests = layOut(lines, layout).map(
            (bytes, index) => chunker.add(index + 2, chunkLineOf(bytes), index)?.digest,
          );
          digests.push(chunker.finish()?.digest);
          const expected = lines.map((_, index) =>
            (index + 1) % batchEvents === 0
              ? canonicalDigest(lines.slice(index + 1 - batchEvents, index + 1))
              : undefined,
          );
          expected.push(
            lines.length % batchEvents === 0
              ? undefined
              : canonicalDigest(lines.slice(lines.length - (lines.length % batchEvents))),
          );
          expect(digests).toEqual(expected);
        },
      ),
    );
  });

  it('hash the shared line of a packed row once, and cut by bytes of source lines', () => {
    const chunker = new AppendChunker<string>({ batchEvents: 100, batchBytes: 6 });
    const row = Buffer.from('packed');
    expect(chunker.add(2, chunkLineOf(row), 'a')).toMatchObject({ items: ['a'], digest: canonicalDigest(['packed']) });
    expect(chunker.add(3, chunkLineOf(Buffer.from('x')), 'b')).toBeUndefined();
    expect(chunker.add(3, chunkLineOf(Buffer.from('x')), 'c')).toBeUndefined();
    expect(chunker.finish()).toEqual({ items: ['b', 'c'], digest: canonicalDigest(['x']) });
  });

  it('differ when a line differs', () => {
    const digestOf = (lines: string[]): string | undefined => {
      const chunker = new AppendChunker<never>({ batchEvents: 100, batchBytes: 1000 });
      lines.forEach((line, index) => chunker.add(index + 2, chunkLineOf(Buffer.from(line))));
      return chunker.finish()?.digest;
    };
    expect(digestOf(['ab', 'c'])).not.toBe(digestOf(['a', 'bc']));
    expect(digestOf(['ab', 'c'])).not.toBe(digestOf(['ab', 'd']));
  });
});
