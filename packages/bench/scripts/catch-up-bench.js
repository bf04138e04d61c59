#!/usr/bin/env node

/*
 * Micro-benchmark of the SQLite views catch-up alone (no import in the timing), on the bench's
 * deterministic team corpus. Uses the compiled packages: run `npx tsc -b` first.
 *
 *   node packages/bench/scripts/catch-up-bench.js prepare <dir> [--events 1000000]
 *       writes the corpus, imports it into <dir>/store.db once (no views), removes the logs
 *   node packages/bench/scripts/catch-up-bench.js run <dir> [--repeat 3] [--rebuild] [--options '{"batchSize":20000}']
 *       per repeat: copies store.db to a fresh file, then a fresh child process opens it,
 *       times sqliteProjections(store).catchUp() (or rebuild()) and reports events/s,
 *       bytes written to storage (/proc/self/io), peak RSS (VmHWM) and a digest of the views
 *       (replay() and statistics(), to check that a change left the views identical); prints medians.
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const procField = (file, name) => {
  const match = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(fs.readFileSync(file, 'utf8'));
  return match === null ? NaN : Number(match[1]);
};
const writeBytes = () => procField('/proc/self/io', 'write_bytes');
const peakRssKiB = () => procField('/proc/self/status', 'VmHWM');

const flag = (args, name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : args[index + 1];
};

const removeDatabase = (file) => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(file + suffix, { force: true }));

const prepare = async (dir, args) => {
  const { writeTeamCorpus } = require('../dist');
  const { importSessionLogs } = require('@teamlog/dsh');
  const { SqliteEventStore } = require('@teamlog/store-sqlite');
  const events = Number(flag(args, '--events', '1000000'));
  fs.mkdirSync(dir, { recursive: true });
  const logs = path.join(dir, 'logs');
  fs.rmSync(logs, { recursive: true, force: true });
  const written = await writeTeamCorpus(logs, { events, teams: 4, membersPerTeam: 8 });
  const file = path.join(dir, 'store.db');
  removeDatabase(file);
  const store = SqliteEventStore.open(file);
  const started = performance.now();
  const report = await importSessionLogs(logs, store);
  await store.close();
  fs.rmSync(logs, { recursive: true, force: true });
  const imported = report.files.reduce((sum, one) => sum + one.events, 0);
  console.log(
    JSON.stringify({
      corpusEvents: written.summary.events,
      corpusBytes: written.bytes,
      imported,
      importMs: Math.round(performance.now() - started),
    }),
  );
};

const child = async (file, args) => {
  const { SqliteEventStore, sqliteProjections } = require('@teamlog/store-sqlite');
  const options = JSON.parse(flag(args, '--options', '{}'));
  const rebuild = args.includes('--rebuild');
  const store = SqliteEventStore.open(file);
  const openedAt = performance.now();
  const projections = await sqliteProjections(store, options);
  const writtenBefore = writeBytes();
  const started = performance.now();
  const folded = rebuild ? await projections.rebuild() : await projections.catchUp();
  const ms = performance.now() - started;
  const written = writeBytes() - writtenBefore;
  const peak = peakRssKiB();
  const views = projections.views();
  const digest = createHash('sha256')
    .update(JSON.stringify(views.replay()))
    .update(JSON.stringify(views.statistics()))
    .digest('hex')
    .slice(0, 16);
  await store.close();
  // Views reloaded from the file must equal the folded ones (a row-based team view across restart).
  const reopened = SqliteEventStore.open(file);
  const loadStarted = performance.now();
  const again = (await sqliteProjections(reopened, options)).views();
  const loadMs = performance.now() - loadStarted;
  const reloaded = createHash('sha256')
    .update(JSON.stringify(again.replay()))
    .update(JSON.stringify(again.statistics()))
    .digest('hex')
    .slice(0, 16);
  await reopened.close();
  process.stdout.write(
    `${JSON.stringify({
      folded,
      ms,
      eventsPerSecond: folded / (ms / 1000),
      writtenMiB: written / 2 ** 20,
      peakRssMiB: peak / 1024,
      openMs: started - openedAt,
      loadMs,
      digest,
      reloaded,
    })}\n`,
  );
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const run = (dir, args) => {
  const repeat = Number(flag(args, '--repeat', '3'));
  const template = path.join(dir, 'store.db');
  const file = path.join(dir, 'run.db');
  const results = [];
  for (let round = 0; round < repeat; round += 1) {
    removeDatabase(file);
    fs.copyFileSync(template, file);
    const result = spawnSync(process.execPath, [__filename, 'child', file, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (result.status !== 0) throw new Error(`child failed (${result.status}): ${result.stderr}`);
    const measured = JSON.parse(result.stdout.trim().split('\n').pop());
    console.log(JSON.stringify(measured));
    results.push(measured);
  }
  removeDatabase(file);
  const summary = {};
  for (const key of ['ms', 'eventsPerSecond', 'writtenMiB', 'peakRssMiB', 'loadMs'])
    summary[key] = Math.round(median(results.map((one) => one[key])) * 10) / 10;
  console.log(
    JSON.stringify({
      median: summary,
      runs: results.length,
      folded: results[0].folded,
      digests: [...new Set(results.flatMap((one) => [one.digest, one.reloaded]))],
    }),
  );
};

const main = async () => {
  const [command, target, ...args] = process.argv.slice(2);
  if (command === 'prepare') return prepare(target, args);
  if (command === 'child') return child(target, args);
  if (command === 'run') return run(target, args);
  throw new Error('usage: catch-up-bench.js prepare|run <dir> [options]');
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
