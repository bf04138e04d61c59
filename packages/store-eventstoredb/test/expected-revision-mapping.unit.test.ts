import { ANY, NO_STREAM, STREAM_EXISTS } from '@eventstore/db-client';
import {
  fromClientCurrentRevision,
  fromClientExpectedRevision,
  toClientExpectedRevision,
} from '@teamlog/store-eventstoredb';

describe('expected revision mapping', () => {
  it.each([
    ['any', ANY],
    ['no_stream', NO_STREAM],
    ['stream_exists', STREAM_EXISTS],
  ] as const)('maps %s to the client constant and back', (port, client) => {
    expect(toClientExpectedRevision(port)).toBe(client);
    expect(fromClientExpectedRevision(client)).toBe(port);
  });

  it('passes an exact revision through as a bigint, beyond 2^53 too', () => {
    const big = 2n ** 60n + 3n;
    expect(toClientExpectedRevision(0n)).toBe(0n);
    expect(toClientExpectedRevision(big)).toBe(big);
    expect(fromClientExpectedRevision(big)).toBe(big);
  });

  it('reports the actual revision as the last revision or no_stream', () => {
    expect(fromClientCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(fromClientCurrentRevision(41n)).toBe(41n);
  });
});
