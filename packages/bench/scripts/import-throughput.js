#!/usr/bin/env node
// @ts-check
/**
 * Micro-benchmark of the dsh reader and importer (not a test: nothing here asserts a duration).
 *
 *   npx tsc -b packages/bench
 *   node packages/bench/scripts/import-throughput.js [--events 200000] [--runs 5]
 *        [--cases baseline,scan,null,memory,sqlite] [--inputs corpus,v4,v0] [--dist <dsh dist dir>]
 *        [--single-pass-bytes <n>] [--inputs-dir <dir>: reuse (or keep) the generated inputs there]
 *
 * Inputs (written once to a temp dir, synced): the bench's team corpus (`--events` events, via
 * this package; it lives here so dsh never depends on the package that measures it), and two
 * `generateSyntheticLog` files (V4 and V0 with packed rows) of `--synthetic-mib` MiB each.
 * Every case runs in a fresh child process that first reads the same files with the bench's
 * JSON.parse baseline (which also warms the page cache), then runs the case and reports events/s
 * and the ratio to that baseline. Cases run interleaved `--runs` times; medians are printed.
 *   scan:   scanSessionLog of every file (the reader alone)
 *   null:   importSessionLogs into a store that keeps nothing (the importer's own work)
 *   memory: importSessionLogs into InMemoryEventStore
 *   sqlite: importSessionLogs into SqliteEventStore on a temp file
 * `--dist a,b` runs the cases against other builds of dsh, interleaved run by run (e.g. a copy of
 * the previous dist; set NODE_PATH=<repo>/node_modules so it resolves @teamlog/*); `--label a,b`
 * names them in the output.
 */
const { spawnSync } = require('node:child_process');
const { promises: fs, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');

const argValue = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};

/** A store that accepts every append and keeps nothing: what is left is the importer's own work. */
class NullStore {
  constructor() {
    this.revisions = new Map();
    this.position = 0n;
  }
  async appendToStream(stream, events) {
    const next = (this.revisions.get(stream) ?? -1n) + BigInt(events.length);
    this.revisions.set(stream, next);
    this.position += 1n;
    return { nextExpectedRevision: next, position: { commit: this.position, prepare: this.position } };
  }
  async *readStream() {}
  async *readAll() {}
  subscribeToAll() {
    throw new Error('not supported');
  }
  async streamRevision(stream) {
    return this.revisions.get(stream);
  }
  async close() {}
}

const runChild = async () => {
  const [, , , caseName, root, distArg, singlePassArg] = process.argv;
  const importOptions = singlePassArg === 'default' ? {} : { singlePassBytes: Number(singlePassArg) };
  const dsh = require(distArg);
  const { parseEveryLine } = require('../dist/json-parse-baseline');
  const baselineStarted = performance.now();
  const baseline = await parseEveryLine(root);
  const baselineMs = performance.now() - baselineStarted;
  const started = performance.now();
  let events = 0;
  let rejected = 0;
  let sqliteFile;
  if (caseName === 'scan') {
    for await (const log of dsh.discoverSessionLogs(root)) events += (await dsh.scanSessionLog(log.file)).events;
  } else {
    let store;
    if (caseName === 'null') store = new NullStore();
    else if (caseName === 'memory') store = new (require('@teamlog/store').InMemoryEventStore)();
    else if (caseName === 'sqlite') {
      sqliteFile = join(mkdtempSync(join(tmpdir(), 'dsh-bench-sqlite-')), 'events.sqlite');
      store = require('@teamlog/store-sqlite').SqliteEventStore.open(sqliteFile);
    } else throw new Error(`unknown case ${caseName}`);
    const report = await dsh.importSessionLogs(root, store, importOptions);
    events = report.files.reduce((sum, file) => sum + file.appended, 0);
    rejected = report.rejected + report.notSessionLogs;
    await store.close();
  }
  const ms = performance.now() - started;
  if (sqliteFile !== undefined) await fs.rm(join(sqliteFile, '..'), { recursive: true, force: true });
  const baselineEvents = baseline.events;
  process.stdout.write(
    `${JSON.stringify({ caseName, events, ms, rejected, baselineEvents, baselineMs, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const writeInputs = async (directory, inputs, events, syntheticMiB, dsh) => {
  const roots = {};
  if (inputs.includes('corpus')) {
    const { writeTeamCorpus } = require('../dist');
    roots.corpus = join(directory, 'corpus');
    await writeTeamCorpus(roots.corpus, { events, teams: 4, membersPerTeam: 8, seed: 6 });
  }
  for (const version of [4, 0]) {
    if (!inputs.includes(`v${version}`)) continue;
    roots[`v${version}`] = join(directory, `v${version}`);
    await fs.mkdir(roots[`v${version}`]);
    await dsh.generateSyntheticLog({
      file: join(roots[`v${version}`], `session.v${version}.jsonl`),
      targetBytes: syntheticMiB * 1024 * 1024,
      formatVersion: version,
    });
  }
  spawnSync('sync');
  return roots;
};

const runParent = async () => {
  const runs = Number(argValue('runs', '5'));
  const events = Number(argValue('events', '200000'));
  const syntheticMiB = Number(argValue('synthetic-mib', '32'));
  const cases = argValue('cases', 'baseline,scan,null,memory,sqlite')
    .split(',')
    .filter((name) => name !== 'baseline');
  const inputs = argValue('inputs', 'corpus,v4,v0').split(',');
  const dists = argValue('dist', join(require.resolve('@teamlog/dsh'), '..'))
    .split(',')
    .map((dist) => resolve(dist));
  const labels = argValue('label', dists.join(',')).split(',');
  const singlePassBytes = argValue('single-pass-bytes', 'default');
  const keep = argValue('inputs-dir', undefined);
  const directory = keep ?? mkdtempSync(join(tmpdir(), 'dsh-bench-'));
  const dsh = require(dists[0]);
  const roots =
    keep !== undefined && (await fs.readdir(directory)).length > 0
      ? Object.fromEntries(inputs.map((input) => [input, join(directory, input)]))
      : await writeInputs(directory, inputs, events, syntheticMiB, dsh);
  const results = {};
  try {
    for (let run = 0; run < runs; run += 1) {
      for (const input of inputs) {
        for (const caseName of cases) {
          // Builds interleaved: each run measures every build under the same machine load.
          dists.forEach((dist, index) => {
            const child = spawnSync(
              process.execPath,
              [__filename, '--child', caseName, roots[input], dist, singlePassBytes],
              { encoding: 'utf8', env: process.env },
            );
            if (child.status !== 0) throw new Error(`${caseName} on ${input} failed:\n${child.stderr}`);
            const outcome = JSON.parse(child.stdout.trim().split('\n').pop());
            if (outcome.rejected > 0) throw new Error(`${caseName} on ${input}: ${outcome.rejected} files rejected`);
            (results[`${labels[index] ?? dist} ${input} ${caseName}`] ??= []).push(outcome);
          });
        }
      }
    }
  } finally {
    if (keep === undefined) await fs.rm(directory, { recursive: true, force: true });
  }
  process.stdout.write(
    `singlePassBytes ${singlePassBytes}; ${runs} runs, medians (ratio: case ev/s over the JSON.parse baseline's in the same child)\n`,
  );
  process.stdout.write('build      input   case    events     ev/s        baseline ev/s  ratio   peak RSS\n');
  for (const [key, outcomes] of Object.entries(results)) {
    const [label, input, caseName] = key.split(' ');
    const rate = median(outcomes.map((o) => o.events / (o.ms / 1000)));
    const baseline = median(outcomes.map((o) => o.baselineEvents / (o.baselineMs / 1000)));
    const ratio = median(outcomes.map((o) => o.events / o.ms / (o.baselineEvents / o.baselineMs)));
    const rss = median(outcomes.map((o) => o.maxRssMiB));
    process.stdout.write(
      `${label.padEnd(10)} ${input.padEnd(7)} ${caseName.padEnd(7)} ${String(outcomes[0].events).padEnd(10)} ${Math.round(rate).toLocaleString('en').padEnd(11)} ${Math.round(baseline).toLocaleString('en').padEnd(14)} ${ratio.toFixed(3).padEnd(7)} ${rss.toFixed(0)} MiB\n`,
    );
  }
};

(process.argv[2] === '--child' ? runChild() : runParent()).catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
