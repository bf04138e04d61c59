import * as fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isLeft } from 'fp-ts/Either';
import { catalogEventTypes, decodeSessionEvent } from '@teamlog/events';
import { checkCatalogPayload, checkLegacyV0Shape } from '../src/event-payload-check';
import { decodeLegacyV0Shape } from '../src/legacy-v0-shapes';

/*
 * The payload check takes `codec.is` as its fast path. It must decide exactly as the full strict
 * decode does and give the same error: checked on the golden examples of every catalog type and
 * on many mutations of them (values replaced by any JSON, keys removed or added, tags changed to
 * other members' tags and to names on Object.prototype).
 */

const goldenDirectory = resolve(__dirname, '../../../fixtures/golden');
const examplesOf = (type: string): unknown[] =>
  (
    JSON.parse(readFileSync(join(goldenDirectory, `${type.replace(/\//g, '__')}.json`), 'utf8')) as {
      examples: unknown[];
    }
  ).examples;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = readonly (string | number)[];

const pathsOf = (value: Json, at: Path = []): Path[] => {
  if (Array.isArray(value)) return [at, ...value.flatMap((item, index) => pathsOf(item, [...at, index]))];
  if (value !== null && typeof value === 'object')
    return [at, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))];
  return [at];
};

const tags = [
  'text',
  'reasoning',
  'image',
  'file',
  'tool-call',
  'tool-result',
  'user',
  'team-message',
  'agent-message',
  'team-relay',
  'completed',
  'aborted',
  'error',
  'replace',
  'toString',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '',
];
const keys = [
  'id',
  'type',
  'kind',
  'role',
  'content',
  'source',
  'turn',
  'step',
  'version',
  'teamId',
  'name',
  'extra',
  'toString',
  '__proto__',
  'isError',
  'offloaded',
];

type Mutation =
  | { readonly kind: 'replace'; readonly at: number; readonly value: Json }
  | { readonly kind: 'remove'; readonly at: number }
  | { readonly kind: 'add'; readonly at: number; readonly key: string; readonly value: Json }
  | { readonly kind: 'retag'; readonly at: number; readonly tag: string };

const jsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(-1, 1.5, 0, '', 'x', [], {}, [0, 1], [1, 2, 3], null, true),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: jsonValue }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), at: fc.nat(), key: fc.constantFrom(...keys), value: jsonValue }),
  fc.record({ kind: fc.constant('retag' as const), at: fc.nat(), tag: fc.constantFrom(...tags) }),
);

/** Apply one mutation at the `at`-th path (mod the number of paths) of a copy of `value`. */
const mutate = (value: Json, change: Mutation): Json => {
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  const paths = pathsOf(copy);
  const path = paths[change.at % paths.length] as Path;
  if (path.length === 0) return change.kind === 'replace' ? change.value : copy;
  const parent = path
    .slice(0, -1)
    .reduce<Json>((node, key) => (node as Record<string, Json>)[key as string] as Json, copy) as Record<string, Json> &
    Json[];
  const key = path[path.length - 1] as string & number;
  switch (change.kind) {
    case 'replace':
      parent[key] = change.value;
      break;
    case 'remove':
      if (Array.isArray(parent)) parent.splice(key, 1);
      else delete parent[key];
      break;
    case 'add': {
      const target = parent[key];
      if (target !== null && typeof target === 'object' && !Array.isArray(target))
        Object.defineProperty(target, change.key, {
          value: change.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else if (Array.isArray(target)) target.push(change.value);
      break;
    }
    case 'retag': {
      const target = parent[key];
      if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
        if ('type' in target) target.type = change.tag;
        else target.kind = change.tag;
      }
      break;
    }
    default: {
      const unreachable: never = change;
      return unreachable;
    }
  }
  return copy;
};

/** What the full strict decode says: undefined for valid, else the one-line error. */
const fullDecode = (type: string, data: unknown): string | undefined => {
  const decoded = decodeSessionEvent(type, data);
  return isLeft(decoded) ? decoded.left.message : undefined;
};

describe('the catalog payload check', () => {
  it.each(catalogEventTypes)('accepts the golden examples of %s', (type) => {
    for (const example of examplesOf(type)) expect(checkCatalogPayload(type, 'catalog', example)).toBeUndefined();
  });

  it.each(catalogEventTypes)('decides mutated %s payloads exactly as the full decode, with the same error', (type) => {
    const examples = examplesOf(type) as Json[];
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...examples),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (example, changes) => {
          const data = changes.reduce(mutate, example);
          const expected = fullDecode(type, data);
          if (expected !== undefined) refused += 1;
          expect(checkCatalogPayload(type, 'catalog', data)?.message).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
    // The mutations reach both outcomes.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(400);
  });

  it('does not decode other classes of event', () => {
    expect(checkCatalogPayload('assistant/chunk', 'recognised', { anything: 1 })).toBeUndefined();
    expect(checkCatalogPayload('plugin:x', 'unknown', 'text')).toBeUndefined();
  });

  it('decides content-block tags named after Object.prototype members as the full decode does', () => {
    for (const tag of ['toString', '__proto__', 'constructor', 'valueOf']) {
      const data = { turn: 1, reason: { kind: tag } };
      expect(checkCatalogPayload('turn/end', 'catalog', data)?.message).toBe(fullDecode('turn/end', data));
      const message = { id: 'm', role: 'user', content: [{ type: tag, x: 1 }], source: { kind: tag } };
      expect(checkCatalogPayload('user/message', 'catalog', message)?.message).toBe(
        fullDecode('user/message', message),
      );
    }
  });
});

describe('the legacy V0 user/message check', () => {
  it('decides mutated legacy payloads exactly as the full decode, with the same error', () => {
    const legacy: Json = {
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', attachment: { attachmentId: 'a', mediaType: 'image/png', bytes: 3, width: 1, height: 1 } },
      ],
      source: { kind: 'user' },
    };
    expect(checkLegacyV0Shape(legacy)).toBeUndefined();
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (changes) => {
        const data = changes.reduce(mutate, legacy);
        const decoded = decodeLegacyV0Shape(data);
        expect(checkLegacyV0Shape(data)?.message).toBe(isLeft(decoded) ? decoded.left.message : undefined);
      }),
      { numRuns: 400 },
    );
  });
});
