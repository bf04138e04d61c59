import { envelopeKeys, isEnvelopeKey } from '../src/logical-event';

describe('envelope keys', () => {
  it('names as envelope keys exactly the keys of the envelope set', () => {
    for (const key of envelopeKeys) expect(isEnvelopeKey(key)).toBe(true);
    for (const key of ['', 'Type', 'types', 'extra', 'seq0', 'packed', '__proto__', 'constructor', 'toString'])
      expect(isEnvelopeKey(key)).toBe(envelopeKeys.has(key));
  });
});
