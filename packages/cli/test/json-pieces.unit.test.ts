import { jsonPieces } from '../src/json-pieces';

const replacer = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);
const pieced = (value: unknown): string => [...jsonPieces(value, replacer)].join('');

describe('a JSON document written in pieces', () => {
  const documents: Array<[string, unknown]> = [
    ['a primitive', 42],
    ['a string with a newline escape', 'a\nb "quoted"'],
    ['empty containers', { a: [], b: {}, c: [[]], d: [{}] }],
    [
      'a replay-like document, nested deeper than the pieces go',
      {
        sessions: [{ id: 's', events: 3, position: { commit: 10n, prepare: 10n } }],
        teams: [
          {
            teamId: 't',
            legacyMessages: [
              { id: 'm1', text: 'line one\nline two', to: ['a', 'b'], meta: { nested: { deeper: [1, { x: null }] } } },
              { id: 'm2', text: '', to: [] },
            ],
            failure: null,
          },
        ],
        totals: { rejected: 0 },
      },
    ],
    ['members and elements JSON has no text for', { gone: undefined, fn: () => 1, list: [undefined, () => 2, 1] }],
    ['a Date and a bigint', { at: new Date(0), big: 12345678901234567890n, list: [new Date(1), 2n] }],
    ['an object whose members are all left out', { a: { gone: undefined }, b: [{ gone: undefined }] }],
    ['a null-prototype object', Object.assign(Object.create(null), { a: 1, b: [2] })],
    [
      'entries of a deep list, one holding a bigint, some with no JSON text',
      {
        teams: [
          {
            legacyMessages: [
              { id: 'm1', seq: 1n, nested: { list: [2n, 'a\nb'] } },
              undefined,
              () => 1,
              { id: 'm2', when: new Date(2) },
              [],
              {},
              'text',
            ],
          },
        ],
      },
    ],
    [
      'a list deep in the document longer than a piece',
      { a: [{ b: Array.from({ length: 1000 }, (_, id) => ({ id })) }] },
    ],
  ];

  it.each(documents)('is JSON.stringify(value, replacer, 2) byte for byte: %s', (_name, value) => {
    expect(pieced(value)).toBe(JSON.stringify(value, replacer, 2));
  });

  it('yields nothing for a value JSON.stringify has no text for', () => {
    expect([...jsonPieces(undefined, replacer)]).toEqual([]);
  });

  it('yields a large list in pieces of a bounded number of entries, never the whole document as one string', () => {
    const entries = Array.from({ length: 10_000 }, (_, index) => ({ id: index, text: 'x'.repeat(100) }));
    const pieces = [...jsonPieces({ teams: [{ legacyMessages: entries }] }, replacer)];
    const longest = Math.max(...pieces.map((piece) => piece.length));
    expect(pieces.length).toBeGreaterThan(50);
    expect(longest).toBeLessThan(200 * 128);
  });

  it('calls the replacer only for a piece JSON.stringify refuses without it', () => {
    const calls: string[] = [];
    const counting = (key: string, value: unknown): unknown => {
      calls.push(key);
      return replacer(key, value);
    };
    const entries = Array.from({ length: 300 }, (_, id) => ({ id }));
    const document = { teams: [{ legacyMessages: [...entries, { big: 1n }] }] };
    expect([...jsonPieces(document, counting)].join('')).toBe(JSON.stringify(document, replacer, 2));
    expect(calls.filter((key) => key === 'id')).toHaveLength(300 - 256);
  });
});
