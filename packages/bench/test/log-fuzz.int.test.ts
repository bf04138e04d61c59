import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { byteMutations, lineMutations, runLogFuzz } from '../src/log-fuzz';

/*
 * 200 mutated real logs (raw and zstd, a fixed seed; blank-line floods and zstd decompression
 * bombs among the damage) through `teamlog import`: exit 0 or 3 only,
 * one line naming the file and its line for each rejection, a rejected file leaves the store
 * unchanged, and the repaired file then imports to exactly what a clean import gives. The bench
 * runs 1,000 (`npm run bench -- --only fuzz`).
 */
describe('teamlog import of mutated logs', () => {
  it('never imports a rejected file partly, over 200 cases of more than 20 kinds of damage', async () => {
    expect(Object.keys(lineMutations).length + Object.keys(byteMutations).length).toBeGreaterThanOrEqual(23);
    const report = await runLogFuzz({
      cases: 200,
      seed: 17,
      workDirectory: join(mkdtempSync(join(tmpdir(), 'teamlog-fuzz-')), 'work'),
    });
    expect(report.cases.filter((each) => each.violations.length > 0)).toEqual([]);
    expect(report.partialImports).toBe(0);
    // The damage reaches both outcomes and most kinds.
    expect(new Set(report.cases.map((each) => each.outcome))).toEqual(new Set(['imported', 'rejected']));
    expect(Object.keys(report.byMutation).length).toBeGreaterThanOrEqual(20);
    // Blank floods inside history are refused, at the end recovered; a zstd bomb is refused (before it is decoded).
    const outcomes = (mutation: string, base?: string) =>
      new Set(
        report.cases
          .filter((each) => each.mutation === mutation && (base === undefined || each.base === base))
          .map((each) => each.outcome),
      );
    expect(outcomes('blank-flood')).toContain('rejected');
    expect(outcomes('blank-tail')).toEqual(new Set(['imported']));
    expect(outcomes('zstd-bomb', 'session.v4.jsonl.zstd')).toEqual(new Set(['rejected']));
  }, 600_000);
});
