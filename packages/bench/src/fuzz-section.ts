import { join } from 'node:path';
import type { BenchOptions } from './bench-options';
import { maxFrameBytes, runFrameFuzz } from './frame-fuzz';
import { runLogFuzz } from './log-fuzz';
import { runConvergenceOrders } from '@teamlog/test-support/follow-convergence';
import { type ReportRow, type Target, formatTarget, verdictOf } from './report-table';
import type { SectionContext, SectionOutcome } from './section-outcome';

export const partialImportTarget: Target = { kind: 'count-at-most', count: 0 };

/** The fixed seed of the bench run (the test suite runs fewer cases with its own seed). */
export const fuzzSeed = 20261201;

/**
 * `teamlog import` of 1,000 mutated logs (200 with --quick): partial imports (a rejected file that
 * changed the store) must be 0, and every other property of the fuzz holds (see log-fuzz.ts).
 * Then `teamlog mcp` fed 120 hostile frame streams (40 with --quick; frame-fuzz.ts): streams with a
 * frame unanswered, a wrong code or a server that stopped serving must be 0.
 */
export const runFuzzSection = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const cases = options.quick ? 200 : 1000;
  context.progress(`fuzz: importing ${cases} mutated logs`);
  const report = await runLogFuzz({ cases, seed: fuzzSeed, workDirectory: join(workDirectory, 'fuzz') });
  const rejected = report.cases.filter((each) => each.outcome === 'rejected').length;
  const row: ReportRow = {
    measure: `Fuzz: partial imports over ${cases} mutated logs (raw and zstd)`,
    value: String(report.partialImports),
    baseline: '-',
    ratio: '-',
    target: formatTarget(partialImportTarget),
    verdict: report.violations > 0 ? 'MISS' : verdictOf(partialImportTarget, report.partialImports),
  };
  const broken = report.cases.filter((each) => each.violations.length > 0).slice(0, 10);
  const orders = options.quick ? 48 : 480;
  context.progress(`fuzz: following ${orders} interleavings of fixture logs cut into pieces`);
  const convergence = await runConvergenceOrders(orders, fuzzSeed);
  const convergenceRow: ReportRow = {
    measure: `Fuzz: followed folders whose views differ from a one-shot replay, over ${orders} interleavings`,
    value: String(convergence.divergent.length),
    baseline: '-',
    ratio: '-',
    target: formatTarget(partialImportTarget),
    verdict: verdictOf(partialImportTarget, convergence.divergent.length),
  };
  const streams = options.quick ? 40 : 120;
  context.progress(`fuzz: feeding ${streams} hostile MCP frame streams to teamlog mcp`);
  const frames = await runFrameFuzz({ cases: streams, seed: fuzzSeed, workDirectory: join(workDirectory, 'frames') });
  const frameRow: ReportRow = {
    measure: `Fuzz: MCP frame streams with a frame unanswered or mis-answered, or serving stopped, over ${streams}`,
    value: String(frames.violations),
    baseline: '-',
    ratio: '-',
    target: formatTarget(partialImportTarget),
    verdict: verdictOf(partialImportTarget, frames.violations),
  };
  return {
    rows: [row, convergenceRow, frameRow],
    notes: [
      `fuzz: ${cases} cases (seed ${fuzzSeed}), ${rejected} rejected with exit 3, ${cases - rejected} imported; cases breaking any property: ${report.violations}`,
      `fuzz: mutations ${Object.entries(report.byMutation)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ')}`,
      ...broken.map(
        (each) => `fuzz case ${each.index} (${each.mutation} of ${each.base}): ${each.violations.join('; ')}`,
      ),
      `fuzz: follow convergence: ${convergence.orders} orders tried (${convergence.pieces} pieces, seeds from ${fuzzSeed}), ${convergence.divergent.length} ended differently from a one-shot replay`,
      ...convergence.divergent.slice(0, 10).map((each) => `fuzz: divergent order: ${each}`),
      `fuzz: MCP frames: ${streams} streams (seed ${fuzzSeed}; frame limit ${maxFrameBytes} bytes, largest stream ${frames.largestBytes} bytes): ${Object.entries(
        frames.byKind,
      )
        .map(([name, count]) => `${name} ${count}`)
        .join(', ')}`,
      ...frames.cases
        .filter((each) => each.violations.length > 0)
        .slice(0, 10)
        .map((each) => `fuzz: frame stream ${each.index} (${each.kinds.join(', ')}): ${each.violations.join('; ')}`),
    ],
    profiles: [],
  };
};
