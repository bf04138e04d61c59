import { createHash } from 'node:crypto';
import { eventDigest } from '@teamlog/store';

/* The hash chain's digest (docs/trust-boundary.md): what it covers, and that it is the documented SHA-256. */

describe('eventDigest', () => {
  const event = { type: 'teamlog/inbox/accepted', data: '{"n":1}', metadata: '{"time":5}' };

  it('is SHA-256 over the version, the predecessor and each field prefixed by its length in UTF-8 bytes', () => {
    const input = 'teamlog-chain-1\n-\n5:tÿpe\n4:"é"\n-';
    expect(eventDigest(undefined, { type: 'tÿpe', data: '"é"', metadata: null })).toBe(
      createHash('sha256').update(input, 'utf8').digest('hex'),
    );
  });

  it('changes with the predecessor, the type, the data and the metadata', () => {
    const digests = new Set([
      eventDigest(undefined, event),
      eventDigest('0'.repeat(64), event),
      eventDigest(undefined, { ...event, type: 'teamlog/inbox/claimed' }),
      eventDigest(undefined, { ...event, data: '{"n":2}' }),
      eventDigest(undefined, { ...event, metadata: '{"time":6}' }),
      eventDigest(undefined, { ...event, metadata: null }),
    ]);
    expect(digests.size).toBe(6);
  });

  it('tells apart events whose fields only split the same text differently', () => {
    expect(eventDigest(undefined, { type: 'a', data: 'b\n1:c', metadata: null })).not.toBe(
      eventDigest(undefined, { type: 'a\n1:b', data: 'c', metadata: null }),
    );
    expect(eventDigest(undefined, { type: 'x', data: '{}', metadata: '' })).not.toBe(
      eventDigest(undefined, { type: 'x', data: '{}', metadata: null }),
    );
  });

  describe('is the documented SHA-256 whatever the size and characters of the fields', () => {
    const documented = (previous: string | undefined, type: string, data: string, metadata: string | null): string =>
      createHash('sha256')
        .update(
          `teamlog-chain-1\n${previous ?? '-'}\n${Buffer.byteLength(type)}:${type}\n${Buffer.byteLength(data)}:${data}\n${
            metadata === null ? '-' : `${Buffer.byteLength(metadata)}:${metadata}`
          }`,
          'utf8',
        )
        .digest('hex');
    const cases: [string, string | undefined, string, string, string | null][] = [
      ['empty fields', undefined, '', '', ''],
      ['a predecessor and no metadata', 'f'.repeat(64), 'team/message/queued', '{"a":1}', null],
      ['two-, three- and four-byte characters', 'a'.repeat(64), 'tÿpe', '{"t":"é€😀"}', '{"n":"ü"}'],
      ['a lone surrogate', undefined, 'x', '"\ud800"', '{"s":"\udc00x"}'],
      ['lengths of several digits', 'b'.repeat(64), 'y'.repeat(12_345), 'z'.repeat(100_000), 'm'.repeat(9)],
      ['data past the kept buffer', 'c'.repeat(64), 'big', `"${'é'.repeat(700_000)}"`, null],
    ];
    it.each(cases)('%s', (_name, previous, type, data, metadata) => {
      expect(eventDigest(previous, { type, data, metadata })).toBe(documented(previous, type, data, metadata));
    });

    it('a small event after a large one', () => {
      eventDigest(undefined, { type: 'big', data: 'q'.repeat(500_000), metadata: null });
      expect(eventDigest('d'.repeat(64), { type: 't', data: '{}', metadata: '{"time":1}' })).toBe(
        documented('d'.repeat(64), 't', '{}', '{"time":1}'),
      );
    });
  });

  it("writes each field once: no field's UTF-8 length is measured apart from its writing", () => {
    const byteLength = jest.spyOn(Buffer, 'byteLength');
    try {
      eventDigest('e'.repeat(64), { type: 'tÿpe', data: '{"t":"é€😀"}', metadata: '{"n":"ü"}' });
      expect(byteLength).not.toHaveBeenCalled();
    } finally {
      byteLength.mockRestore();
    }
  });

  it.each([
    ['ASCII', 'teamlog/inbox/accepted', '{"n":1}', '{"time":5}'],
    ['no metadata', 'a', '"x"', null],
    ['multi-byte characters and emoji', 'tÿpe', '"héllo ✓ 🎉"', '{"w":"ü"}'],
    ['lone surrogates', 't', '"lone \ud800 high \udc00 low"', '"\ud83d"'],
    ['empty texts', '', '', ''],
    ['data larger than the scratch buffer', 't', `"${'é'.repeat(40_000)}"`, '{"time":5}'],
  ])('hashes exactly the documented input text for %s', (_, type, data, metadata) => {
    for (const previous of [undefined, 'f'.repeat(64), 'not hex: ü']) {
      const input =
        `teamlog-chain-1\n${previous ?? '-'}\n${Buffer.byteLength(type)}:${type}\n${Buffer.byteLength(data)}:${data}\n` +
        (metadata === null ? '-' : `${Buffer.byteLength(metadata)}:${metadata}`);
      expect(eventDigest(previous, { type, data, metadata })).toBe(
        createHash('sha256').update(input, 'utf8').digest('hex'),
      );
    }
  });
});
