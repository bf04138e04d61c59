import fc from 'fast-check';
import { v1, v4, v5, v6, v7, validate } from 'uuid';
import { isUuid, uuidV5 } from '../src/uuid-text';

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${length}}$`));
/** Text shaped like a uuid, its version and variant digits anything: most are not valid uuids. */
const uuidShaped = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-'));

describe('uuid text', () => {
  it('accepts and refuses exactly what the uuid package validates', () => {
    const known = [v1(), v4(), v5('a', v4()), v6(), v7(), '00000000-0000-0000-0000-000000000000'];
    for (const each of [...known, ...known.map((id) => id.toUpperCase()), 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'])
      expect(isUuid(each)).toBe(true);
    fc.assert(
      fc.property(fc.oneof(uuidShaped, fc.string(), fc.anything()), (text) => {
        expect(isUuid(text)).toBe(validate(text as string));
      }),
      { numRuns: 2000 },
    );
  });

  it('makes the uuid package v5 of every name in every namespace', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.uuid(), (name, namespace) => {
        expect(uuidV5(name, namespace)).toBe(v5(name, namespace));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a namespace that is not a uuid', () => {
    expect(() => uuidV5('name', 'not-a-uuid')).toThrow(TypeError);
  });
});
