import * as fc from 'fast-check';
import * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type CatalogEventType,
  ContentBlock,
  JsonObject,
  JsonValue,
  catalogEventTypes,
  catalogValidator,
  compileValidator,
  eventCodecs,
  openObject,
  strictObject,
  taggedUnion,
} from '@teamlog/events';

/*
 * The compiled validators must accept exactly what their codec's `decode` accepts. Checked on
 * every line of every raw log under fixtures/ and every golden example (each payload against
 * every catalog codec, not only its own type's), and on values generated from the codecs
 * themselves (valid ones, and mutations of them), with fixed seeds. The error a refusal reports
 * is the codec's own (the validator only says whether), which event-payload-check.unit.test.ts in
 * dsh checks on the same kind of mutations.
 */

const repoRoot = resolve(__dirname, '../../..');
const codecAccepts = (type: CatalogEventType, data: unknown): boolean =>
  isRight((eventCodecs[type] as t.Decoder<unknown, unknown>).decode(data));

/** `type` -> the payloads on which the validator and the codec disagree (empty when they agree). */
const disagreements = (payloads: readonly unknown[]): Record<string, unknown[]> => {
  const found: Record<string, unknown[]> = {};
  for (const type of catalogEventTypes) {
    const validator = catalogValidator(type);
    const differ = payloads.filter((data) => validator(data) !== codecAccepts(type, data));
    if (differ.length > 0) found[type] = differ.slice(0, 3);
  }
  return found;
};

const filesUnder = (directory: string): string[] =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );

const parsed = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};

/** Every `data` of every line of every raw log, with the line's type. */
const fixturePayloads = (): Array<{ readonly type: unknown; readonly data: unknown }> =>
  filesUnder(join(repoRoot, 'fixtures'))
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
    .map(parsed)
    .filter((record): record is { type: unknown; data: unknown } => typeof record === 'object' && record !== null)
    .map(({ type, data }) => ({ type, data }));

const goldenPayloads = (): unknown[] =>
  filesUnder(join(repoRoot, 'fixtures', 'golden'))
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { examples: unknown[] }).examples);

/*
 * Values generated from a codec's own tree: what it accepts (mostly), built node by node. A
 * refinement's values are its base's, filtered by its predicate; recursion stops at `depth`.
 */
type Node = t.Mixed & { readonly _tag?: string };

const anyJson = fc.jsonValue({ maxDepth: 2 });
const numbers = fc.oneof(fc.nat(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const strings = fc.oneof(fc.string(), fc.uuid(), fc.constantFrom('', 'toString', '__proto__'));

const arbitraryOf = (codec: Node, depth: number): fc.Arbitrary<unknown> => {
  const shape = codec as unknown as Record<string, unknown>;
  if (codec === JsonValue) return anyJson;
  if (codec === JsonObject) return fc.dictionary(fc.string(), anyJson, { maxKeys: 3 });
  const props = (required: t.Props, optional: t.Props, open: boolean): fc.Arbitrary<unknown> =>
    fc
      .tuple(
        fc.record(Object.fromEntries(Object.entries(required).map(([k, c]) => [k, arbitraryOf(c as Node, depth)]))),
        fc.record(Object.fromEntries(Object.entries(optional).map(([k, c]) => [k, arbitraryOf(c as Node, depth)])), {
          requiredKeys: [],
        }),
        open ? fc.dictionary(fc.constantFrom('extra', 'more'), anyJson, { maxKeys: 2 }) : fc.constant({}),
      )
      .map(([r, o, extra]) => ({ ...extra, ...o, ...r }));
  if ('extraKeys' in shape)
    return props(shape.required as t.Props, shape.optional as t.Props, shape.extraKeys === 'kept');
  if ('members' in shape && 'fallback' in shape) {
    const members = Object.values(shape.members as Record<string, Node>);
    return fc.oneof(...[...members, shape.fallback as Node].map((member) => arbitraryOf(member, depth)));
  }
  switch (codec._tag) {
    case 'StringType':
      return strings;
    case 'NumberType':
      return numbers;
    case 'BooleanType':
      return fc.boolean();
    case 'UnknownType':
      return anyJson;
    case 'LiteralType':
      return fc.constant(shape.value);
    case 'KeyofType':
      return fc.constantFrom(...Object.keys(shape.keys as object));
    case 'RefinementType': {
      const predicate = shape.predicate as (value: unknown) => boolean;
      return arbitraryOf(shape.type as Node, depth).filter(predicate);
    }
    case 'RecursiveType':
      return depth <= 0 ? fc.constant({ type: 'text', text: 'leaf' }) : arbitraryOf(shape.type as Node, depth - 1);
    case 'ReadonlyArrayType':
    case 'ArrayType':
      return fc.array(arbitraryOf(shape.type as Node, depth), { maxLength: depth <= 0 ? 0 : 3 });
    case 'TupleType':
      return fc.tuple(...(shape.types as Node[]).map((item) => arbitraryOf(item, depth)));
    case 'InterfaceType':
      return props(shape.props as t.Props, {}, true);
    case 'PartialType':
      return props({}, shape.props as t.Props, true);
    case 'IntersectionType':
      return fc
        .tuple(...(shape.types as Node[]).map((member) => arbitraryOf(member, depth)))
        .map((parts) => Object.assign({}, ...parts));
    case 'UnionType':
      return fc.oneof(...(shape.types as Node[]).map((member) => arbitraryOf(member, depth)));
    default:
      return anyJson;
  }
};

type Path = readonly (string | number)[];
const pathsOf = (value: unknown, at: Path = []): Path[] => {
  if (Array.isArray(value)) return [at, ...value.flatMap((item, index) => pathsOf(item, [...at, index]))];
  if (value !== null && typeof value === 'object')
    return [at, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))];
  return [at];
};

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'remove', 'add', 'undefined'),
  key: fc.constantFrom('type', 'kind', 'id', 'name', 'extra', 'isError', 'offloaded', 'toString', '__proto__'),
  value: fc.oneof(anyJson, fc.constantFrom('toString', 'text', 'team-relay', 'image', 1.5, -1, 0, [], {})),
});

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** One change at the `at`-th path of a copy: a value replaced, a key removed or added, or set to undefined. */
const mutate = (value: unknown, change: Mutation): unknown => {
  const copy = structuredClone(value);
  const paths = pathsOf(copy);
  const path = paths[change.at % paths.length] as Path;
  if (path.length === 0) return change.kind === 'replace' ? change.value : copy;
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy) as
    | Record<string, unknown>
    | unknown[];
  const key = path[path.length - 1] as string;
  const target = (parent as Record<string, unknown>)[key];
  if (change.kind === 'replace') (parent as Record<string, unknown>)[key] = change.value;
  if (change.kind === 'undefined') (parent as Record<string, unknown>)[key] = undefined;
  if (change.kind === 'remove') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  }
  if (change.kind === 'add' && target !== null && typeof target === 'object' && !Array.isArray(target))
    Object.defineProperty(target, change.key, { value: change.value, enumerable: true, writable: true });
  return copy;
};

describe('validators compiled from the codecs', () => {
  it('agree with their codec on every line of every raw log under fixtures/ and every golden example', () => {
    const lines = fixturePayloads();
    expect(lines.length).toBeGreaterThan(5000);
    const catalogLines = lines.filter(
      ({ type }) => typeof type === 'string' && catalogEventTypes.includes(type as never),
    );
    expect(catalogLines.length).toBeGreaterThan(1000);
    const payloads = [...lines.map(({ data }) => data), ...goldenPayloads()];
    expect(disagreements(payloads)).toEqual({});
  });

  it('accept every fixture line of a catalog type that its codec accepts, and refuse the others', () => {
    const mismatched = fixturePayloads().filter(
      ({ type, data }) =>
        typeof type === 'string' &&
        catalogEventTypes.includes(type as CatalogEventType) &&
        catalogValidator(type as CatalogEventType)(data) !== codecAccepts(type as CatalogEventType, data),
    );
    expect(mismatched).toEqual([]);
  });

  it.each(catalogEventTypes)(
    'agree with the codec of %s on values generated from it and on mutations of them',
    (type) => {
      const codec = eventCodecs[type] as Node;
      const validator = catalogValidator(type);
      const accepted: unknown[] = [];
      fc.assert(
        fc.property(arbitraryOf(codec, 2), (value) => {
          if (codecAccepts(type, value)) accepted.push(value);
          expect(validator(value)).toBe(codecAccepts(type, value));
        }),
        { seed: 20261202, numRuns: 150 },
      );
      // The generator mostly builds what the codec accepts, so the mutations start from valid values.
      expect(accepted.length).toBeGreaterThan(50);
      const verdicts = new Set<boolean>();
      fc.assert(
        fc.property(
          fc.constantFrom(...accepted),
          fc.array(mutation, { minLength: 1, maxLength: 3 }),
          (value, changes) => {
            const mutated = changes.reduce(mutate, value);
            verdicts.add(codecAccepts(type, mutated));
            expect(validator(mutated)).toBe(codecAccepts(type, mutated));
          },
        ),
        { seed: 20261203, numRuns: 300 },
      );
      expect(verdicts).toEqual(new Set([true, false]));
    },
  );

  it('check refinements with the codec predicate and name no fallback for any catalog codec', () => {
    expect(catalogEventTypes.filter((type) => catalogValidator(type).fallbacks.length > 0)).toEqual([]);
    const validator = compileValidator(ContentBlock);
    expect(
      validator({
        type: 'image',
        attachment: { attachmentId: 'a', mediaType: 'image/png', bytes: -1, width: 1, height: 1 },
      }),
    ).toBe(false);
    expect(
      validator({
        type: 'image',
        attachment: { attachmentId: 'a', mediaType: 'image/png', bytes: 0, width: 1, height: 1 },
      }),
    ).toBe(true);
  });

  it('fall back to the codec for a node it cannot read, and say which', () => {
    const even = new t.Type<number, number, unknown>(
      'Even',
      (u): u is number => typeof u === 'number' && u % 2 === 0,
      (u, c) => (typeof u === 'number' && u % 2 === 0 ? t.success(u) : t.failure(u, c)),
      t.identity,
    );
    const validator = compileValidator(strictObject({ n: even }, {}, 'WithEven'));
    expect(validator.fallbacks).toEqual(['Even']);
    expect([validator({ n: 2 }), validator({ n: 3 }), validator({ n: 2, m: 1 })]).toEqual([true, false, false]);
  });

  it('follow strictObject: no undeclared own key, no declared optional key holding undefined', () => {
    const strict = compileValidator(strictObject({ a: t.string }, { b: t.number }, 'Strict'));
    const open = compileValidator(openObject({ a: t.string }, { b: t.number }, 'Open'));
    const inherited = Object.assign(Object.create({ inheritedKey: 1 }) as object, { a: 'x' });
    expect([
      strict({ a: 'x' }),
      strict({ a: 'x', b: 1 }),
      strict({ a: 'x', c: 1 }),
      strict({ a: 'x', b: undefined }),
    ]).toEqual([true, true, false, false]);
    expect(strict(inherited)).toBe(true);
    expect([open({ a: 'x', c: 1 }), open({ a: 'x', b: undefined }), open([]), open(null)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('write objects, arrays, tuples and intersections in their parent: a function only per union and recursion', () => {
    const functions = (source: string): number => source.match(/^function /gm)?.length ?? 0;
    // A send's acceptance: the root, and ContentBlock (a recursion, and its fallback) for the blocks.
    expect(functions(catalogValidator('teamlog/inbox/accepted').source)).toBe(3);
    const nested = compileValidator(
      strictObject(
        {
          rows: t.array(
            t.array(t.tuple([t.string, t.intersection([t.type({ a: t.number }), t.partial({ b: t.string })])])),
          ),
          either: t.union([t.string, t.type({ n: t.number })]),
        },
        { more: t.readonly(t.type({ c: t.boolean })) },
        'Nested',
      ),
    );
    // The root, the union, and the union's object member (a union's members are called).
    expect(functions(nested.source)).toBe(3);
    expect([
      nested({ rows: [[['x', { a: 1 }]], [['y', { a: 2, b: 'z' }]]], either: 's' }),
      nested({ rows: [[['x', { a: 1, b: 2 }]]], either: 's' }),
      nested({ rows: [[[1, { a: 1 }]]], either: { n: 1 } }),
      nested({
        rows: [
          [],
          [
            ['x', { a: 1 }],
            ['x', {}],
          ],
        ],
        either: 's',
      }),
      nested({ rows: [], either: { n: 1 }, more: { c: true } }),
      nested({ rows: [], either: { n: 1 }, more: { c: 1 } }),
      nested({ rows: [], either: { n: 'x' } }),
    ]).toEqual([true, false, false, false, true, false, false]);
  });

  it('follow taggedUnion: a known tag must decode as its member, an inherited name is no member', () => {
    const union = compileValidator(
      taggedUnion(
        'kind',
        { a: strictObject({ kind: t.literal('a'), n: t.number }, {}, 'A') },
        openObject({ kind: t.string }, {}, 'Other'),
        'U',
      ),
    );
    expect([
      union({ kind: 'a', n: 1 }),
      union({ kind: 'a' }),
      union({ kind: 'toString' }),
      union({ kind: 'b', n: 'x' }),
      union({}),
    ]).toEqual([true, false, true, true, false]);
  });
});
