import type * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { readFileSync } from 'node:fs';
import { type CatalogEventType, catalogEventTypes, catalogValidator, eventCodecs } from '@teamlog/events';
import { deterministicRandom } from '../src/deterministic-random';
import { fuzzBases, lineMutations } from '../src/log-fuzz';

/*
 * The compiled validators against the fuzz corpus (log-fuzz.ts): every line of every raw base log
 * after every kind of line damage, 20 seeds each. Each distinct line's payload is judged by every catalog type's
 * validator and codec (not only its own type's), and the two must agree.
 */

const isCatalogType = (type: unknown): type is CatalogEventType =>
  typeof type === 'string' && (catalogEventTypes as readonly string[]).includes(type);

const payloadOf = (line: string): { readonly type: unknown; readonly data: unknown } | undefined => {
  try {
    const record = JSON.parse(line) as unknown;
    return typeof record === 'object' && record !== null ? (record as { type: unknown; data: unknown }) : undefined;
  } catch {
    return undefined;
  }
};

describe('validators compiled from the codecs, on the fuzz corpus', () => {
  it('agree with their codec on every line of every damaged raw log', () => {
    // Most lines of a damaged log are undamaged: each distinct line is judged once.
    const payloads = new Map<string, unknown>();
    let catalogLines = 0;
    for (const base of fuzzBases.filter((each) => !each.zstd)) {
      const lines = readFileSync(base.file, 'utf8').split('\n');
      for (const [name, mutate] of Object.entries(lineMutations)) {
        // The floods add only blank lines: one seed of them is enough.
        const seeds = name.startsWith('blank') ? 1 : 20;
        for (let seed = 1; seed <= seeds; seed += 1) {
          for (const line of mutate(lines, deterministicRandom(seed))) {
            const record = payloadOf(line);
            if (record === undefined) continue;
            if (isCatalogType(record.type)) catalogLines += 1;
            payloads.set(line, record.data);
          }
        }
      }
    }
    expect(catalogLines).toBeGreaterThan(10_000);
    const disagreeing = catalogEventTypes.flatMap((type) => {
      const validator = catalogValidator(type);
      const codec = eventCodecs[type] as t.Decoder<unknown, unknown>;
      return [...payloads.values()]
        .filter((data) => validator(data) !== isRight(codec.decode(data)))
        .slice(0, 3)
        .map((data) => ({ type, data }));
    });
    expect(disagreeing).toEqual([]);
  }, 300_000);
});
