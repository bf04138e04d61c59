import fc from 'fast-check';
import { isRight } from 'fp-ts/Either';
import { type JsonObject, type JsonValue, type SessionId, StoredEventMetadata } from '@teamlog/events';
import { decodeMetadata, encodeMetadata, wrappedMetadataKey } from '@teamlog/store-eventstoredb';

const decoded = (stored: unknown) => {
  const result = decodeMetadata(stored);
  if (!isRight(result)) throw new Error(result.left);
  return result.right;
};
/** What the server hands back: the JSON text the client wrote, parsed again. */
const throughServer = (value: JsonValue | undefined): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

describe('event metadata mapping', () => {
  const metadata: StoredEventMetadata & JsonObject = {
    time: 1_700_000_000_123,
    causationId: '0190f1c4-0000-7000-8000-000000000001',
    correlationId: '0190f1c4-0000-7000-8000-000000000002',
    writerSessionId: 'session-lead' as SessionId,
  };

  it('adds the server conventions $correlationId and $causationId beside causation, correlation and writer session', () => {
    expect(encodeMetadata(metadata)).toEqual({
      ...metadata,
      $correlationId: metadata.correlationId,
      $causationId: metadata.causationId,
    });
  });

  it('reads StoredEventMetadata back exactly, without the convention copies', () => {
    const back = decoded(throughServer(encodeMetadata(metadata)));
    expect(back).toEqual(metadata);
    expect(StoredEventMetadata.is(back)).toBe(true);
  });

  it('adds no convention field when there is no causation or correlation', () => {
    expect(encodeMetadata({ time: 5 })).toEqual({ time: 5 });
  });

  it('keeps no metadata as no metadata', () => {
    expect(encodeMetadata(undefined)).toBeUndefined();
    expect(decoded(undefined)).toBeUndefined();
  });

  it.each<[string, JsonValue]>([
    ['an array', [1, 'two']],
    ['a number', 0],
    ['false', false],
    ['null', null],
    ['an empty string', ''],
    ['an object with $ keys of its own', { $correlationId: 'mine', correlationId: 'mine' }],
    ['an object using the wrapper key', { [wrappedMetadataKey]: 1 }],
  ])('wraps %s so it comes back unchanged', (_, value) => {
    const stored = encodeMetadata(value);
    expect(stored).toEqual({ [wrappedMetadataKey]: value });
    expect(decoded(throughServer(stored))).toEqual(value);
  });

  it('round-trips every JSON value exactly', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // fast-check's -0 does not survive JSON text in any store; compare what JSON can carry.
        const json = JSON.parse(JSON.stringify(value)) as JsonValue;
        expect(decoded(throughServer(encodeMetadata(json)))).toEqual(json);
      }),
    );
  });

  it('reads events of other writers that only carry the server conventions into the port fields', () => {
    expect(decoded({ $correlationId: 'c-1', $causationId: 'e-1', user: 'x' })).toEqual({
      correlationId: 'c-1',
      causationId: 'e-1',
      user: 'x',
    });
  });

  it('keeps a convention field that disagrees with the port field', () => {
    expect(decoded({ correlationId: 'a', $correlationId: 'b' })).toEqual({ correlationId: 'a', $correlationId: 'b' });
  });

  it('refuses metadata that is not JSON', () => {
    expect(isRight(decodeMetadata(new Uint8Array([0xff, 0x00])))).toBe(false);
  });
});
