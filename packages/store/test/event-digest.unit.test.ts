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
