import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from './bench-options';
import type { ChildResult, RequestOf } from './child-protocol';
import { type Target, formatRate, ratePerSecond, throughputRow, verdictOf } from './report-table';
import { medianRun } from './median-run';
import { type RunPair, pairedRatio } from './paired-ratio';
import { runChild } from './run-child';
import { type SectionContext, type SectionOutcome, noteOf } from './section-outcome';

/**
 * One sender against raw inserts with one durable transaction each (the same durability per
 * message); 64 senders against raw inserts grouped like the store's commits (the shared fsync taken
 * out, so the ratio is the engine's own work per message).
 */
export const sendTargets = { single: 0.8, grouped: { senders: 64, ratio: 0.5 } } as const;

const targetFor = (senders: number): Target =>
  senders === 1 ? { kind: 'ratio-at-least', ratio: sendTargets.single } : { kind: 'none' };
const groupedTargetFor = (senders: number): Target =>
  senders === sendTargets.grouped.senders
    ? { kind: 'ratio-at-least', ratio: sendTargets.grouped.ratio }
    : { kind: 'none' };

const removeDatabase = (file: string) =>
  Promise.all(['', '-wal', '-shm'].map((suffix) => fs.rm(`${file}${suffix}`, { force: true })));

const positiveDetail = (result: ChildResult, key: string): number => {
  const value = result.detail[key];
  return typeof value === 'number' && value > 0 ? value : 1;
};
const rowsPerMessage = (result: ChildResult): number => positiveDetail(result, 'rowsPerMessage');

/**
 * Send throughput (accepted messages/s) of TeamLog.send on SQLite with 1 and 64 concurrent senders,
 * against raw better-sqlite3 inserts of the rows those sends stored, one durable transaction per
 * accepted message (WAL, synchronous=FULL): a message is durable when its send returns. The store
 * group-commits concurrent appends, so the widest case is also compared, without a target, with
 * raw inserts grouped into the same number of rows per transaction as the store's commits held:
 * that ratio is the engine's own overhead, with the shared fsync taken out. Each case is the median
 * of three runs (one with --quick), the sends and both baselines interleaved run by run; each send
 * case's run without hash chains is paired with its run with them (what the chains cost).
 */
export const runSendSection = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const requestFor = (senders: number, unchained = false): RequestOf<'send'> => ({
    case: 'send',
    ...(unchained ? { unchained } : {}),
    dbFile: join(workDirectory, `send-${senders}${unchained ? '-unchained' : ''}.sqlite`),
    members: options.sendMembers,
    senders,
    messages: options.messages,
    rowsFile: join(workDirectory, `send-${senders}${unchained ? '-unchained' : ''}.rows.jsonl`),
  });
  // Each run measures the sends and both raw baselines back to back, and the medians are compared:
  // on a shared disk the fsync rate moves from minute to minute, and a ratio of two cases measured
  // minutes apart says more about the disk than the code.
  const runs = options.quick ? 1 : 3;
  const sendRuns = new Map<number, ChildResult[]>(options.senders.map((senders) => [senders, []]));
  // Each case also runs without hash chains next to its run with them, before it in odd runs and
  // after it in even ones (neither side always goes first): the chains' cost is the median of the
  // pairs' ratios, not a comparison with one run minutes away.
  const chainPairs = new Map<number, RunPair[]>(options.senders.map((senders) => [senders, []]));
  const rawRuns: ChildResult[] = [];
  const groupedRuns: ChildResult[] = [];
  const widestSenders = Math.max(...options.senders);
  const rawFile = join(workDirectory, 'raw-insert.sqlite');
  let rowsPerCommit = 1;
  for (let run = 1; run <= runs; run += 1) {
    const of = runs === 1 ? '' : ` (run ${run} of ${runs})`;
    for (const senders of options.senders) {
      const request = requestFor(senders);
      const withoutChains = async (): Promise<ChildResult> => {
        const unchained = requestFor(senders, true);
        context.progress(
          `send without hash chains (what the chains cost): ${senders} sender${senders === 1 ? '' : 's'}${of}`,
        );
        const result = await runChild(unchained);
        await removeDatabase(unchained.dbFile);
        await fs.rm(unchained.rowsFile, { force: true });
        return result;
      };
      const before = run % 2 === 1 ? await withoutChains() : undefined;
      context.progress(
        `send: ${options.messages} messages from ${senders} concurrent sender${senders === 1 ? '' : 's'} (${options.sendMembers} members)${of}`,
      );
      const measured = await runChild(request);
      sendRuns.get(senders)?.push(measured);
      await removeDatabase(request.dbFile);
      chainPairs.get(senders)?.push({ measured, counterpart: before ?? (await withoutChains()) });
    }
    // The baseline inserts the rows of the most concurrent case (every case stores rows of the same shape).
    const widest = requestFor(widestSenders);
    const widestResult = (sendRuns.get(widestSenders) as ChildResult[])[run - 1] as ChildResult;
    context.progress(`baseline: raw better-sqlite3 inserts of the same rows, one durable transaction each${of}`);
    rawRuns.push(await runChild({ case: 'raw-insert', dbFile: rawFile, rowsFile: widest.rowsFile }));
    await removeDatabase(rawFile);
    rowsPerCommit = Math.max(
      1,
      Math.round(positiveDetail(widestResult, 'messagesPerTransaction') * rowsPerMessage(widestResult)),
    );
    if (rowsPerCommit > 1) {
      context.progress(
        `baseline: the same raw inserts, ${rowsPerCommit} rows per durable transaction (the store's group size)${of}`,
      );
      groupedRuns.push(
        await runChild({
          case: 'raw-insert',
          dbFile: rawFile,
          rowsFile: widest.rowsFile,
          rowsPerTransaction: rowsPerCommit,
        }),
      );
      await removeDatabase(rawFile);
    }
  }
  const sends = options.senders.map((senders) => ({
    senders,
    request: requestFor(senders),
    result: medianRun(sendRuns.get(senders) ?? []),
  }));
  const widest = sends.reduce((best, send) => (send.senders > best.senders ? send : best));
  const raw = medianRun(rawRuns);
  const grouped = groupedRuns.length === 0 ? undefined : medianRun(groupedRuns);

  const rawRowsPerSecond = ratePerSecond(raw.count, raw.elapsedMs);
  const perMessage = rowsPerMessage(widest.result);
  // Sends are counted in messages; the baseline's rate is converted to the messages its rows stand for.
  const rawMessagesPerSecond = rawRowsPerSecond / perMessage;
  const rows = sends.map(({ senders, result }) =>
    throughputRow(
      `Send, ${senders} sender${senders === 1 ? '' : 's'} (TeamLog.send, SQLite)`,
      'msg',
      ratePerSecond(result.count, result.elapsedMs),
      'raw inserts',
      rawMessagesPerSecond,
      targetFor(senders),
    ),
  );
  if (grouped !== undefined) {
    const groupedMessagesPerSecond = ratePerSecond(grouped.count, grouped.elapsedMs) / perMessage;
    rows.push(
      throughputRow(
        `Send, ${widest.senders} senders, vs raw inserts in groups of ${rowsPerCommit}`,
        'msg',
        ratePerSecond(widest.result.count, widest.result.elapsedMs),
        'grouped inserts',
        groupedMessagesPerSecond,
        groupedTargetFor(widest.senders),
      ),
    );
  }
  const notes = [
    ...(runs === 1
      ? []
      : [`send: each case the median of ${runs} runs, the sends and both baselines interleaved run by run`]),
    ...sends.map(({ senders, result }) =>
      noteOf(`send, ${senders} sender${senders === 1 ? '' : 's'}`, result, 'messages accepted'),
    ),
    noteOf('raw inserts', raw, 'rows'),
    ...(grouped === undefined ? [] : [noteOf(`raw inserts in groups of ${rowsPerCommit}`, grouped, 'rows')]),
    `raw insert baseline: ${formatRate(rawRowsPerSecond, 'row')} with ${perMessage.toFixed(2)} stored rows per accepted message`,
    ...options.senders.map((senders) => {
      const pairs = chainPairs.get(senders) ?? [];
      const without = medianRun(pairs.map((pair) => pair.counterpart));
      return `hash chain cost (same run): send, ${senders} sender${senders === 1 ? '' : 's'}, ${pairedRatio(pairs).toFixed(2)}x the rate without chains (median of ${pairs.length} back-to-back pair${pairs.length === 1 ? '' : 's'}; ${formatRate(ratePerSecond(without.count, without.elapsedMs), 'msg')} without)`;
    }),
  ];

  const groupedRate = grouped === undefined ? undefined : ratePerSecond(grouped.count, grouped.elapsedMs) / perMessage;
  const missed = (senders: number, rate: number): boolean =>
    verdictOf(targetFor(senders), rate / rawMessagesPerSecond) === 'MISS' ||
    (groupedRate !== undefined && verdictOf(groupedTargetFor(senders), rate / groupedRate) === 'MISS');
  const profiles: string[] = [];
  for (const { senders, request, result } of sends) {
    if (!missed(senders, ratePerSecond(result.count, result.elapsedMs))) continue;
    profiles.push(...(await context.profile(`send, ${senders} senders (missed its target)`, request)));
    await removeDatabase(request.dbFile);
  }
  await Promise.all(sends.map(({ request }) => fs.rm(request.rowsFile, { force: true })));
  return { rows, notes, profiles };
};
