import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { cliMain, repoRoot, temporaryDirectory } from './run-teamlog';
import { type Finished, startProcess } from './teamlog-process';

/** The executable as installed (`npx teamlog` runs node_modules/.bin/teamlog, a link to it). */
const cliBin = join(repoRoot, 'packages', 'cli', 'bin', 'teamlog.js');
const npxBin = join(repoRoot, 'node_modules', '.bin', 'teamlog');
const probe = join(__dirname, 'heap-probe.js');

interface HeapProbe {
  readonly newSpaceBytes: number;
  readonly execArgv: readonly string[];
}

interface ProbedRun extends Finished {
  readonly heap: HeapProbe;
  /** The factors V8 grew the old generation by after each full collection (--trace-gc-verbose). */
  readonly growingFactors: readonly number[];
}

const probeOf = (stderr: string): HeapProbe => {
  const line = stderr.split('\n').find((each) => each.startsWith('heap-probe '));
  if (line === undefined) throw new Error(`no heap-probe line; stderr: ${stderr}`);
  return JSON.parse(line.slice('heap-probe '.length)) as HeapProbe;
};

const growingFactorsOf = (stdout: string): number[] =>
  [...stdout.matchAll(/\[HeapController\] Limit: .*\((\d+\.\d+)\)$/gm)].map((match) => Number(match[1]));

/** Run `teamlog` (`entry`: the bin or dist/main.js) with the probe loaded, a full collection at its end, and V8's trace of it. */
const probed = async (
  entry: string,
  args: readonly string[],
  nodeFlags: readonly string[] = [],
): Promise<ProbedRun> => {
  const run = await startProcess(process.execPath, [
    '--trace-gc-verbose',
    '--expose-gc',
    ...nodeFlags,
    '-r',
    probe,
    entry,
    ...args,
  ]).exited;
  if (run.code !== 0) throw new Error(`teamlog ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return { ...run, heap: probeOf(run.stderr), growingFactors: growingFactorsOf(run.stdout) };
};

describe('the heap the teamlog process runs with (docs/historical-logs.md#memory)', () => {
  const directory = temporaryDirectory();
  let log = '';
  /** The young generation as Node's start-up leaves it (`teamlog --version` opens no store). */
  let startUpBytes = 0;

  beforeAll(async () => {
    startUpBytes = (await probed(cliBin, ['--version'])).heap.newSpaceBytes;
    mkdirSync(join(directory.path, 'log'));
    log = join(directory.path, 'log', 'session.v4.jsonl');
    // Enough allocation that a young generation left to V8 grows (the :memory: case shows it does).
    await generateSyntheticLog({ file: log, targetBytes: 4 * 1024 * 1024, formatVersion: 4 });
  }, 120_000);

  afterAll(() => directory.cleanup());

  it('stops the young generation growing once a replay opens a SQLite file to write, and grows the old one by 20%, run by the bin', async () => {
    const held = await probed(cliBin, ['replay', log, '--store', join(directory.path, 'held.db')]);
    // The same replay with V8's own growth factor given to Node (teamlog leaves it): the young generation grows.
    const free = await probed(
      cliBin,
      ['replay', log, '--store', join(directory.path, 'free.db')],
      ['--semi-space-growth-factor=2'],
    );
    expect(held.heap.newSpaceBytes).toBe(startUpBytes);
    expect(free.heap.newSpaceBytes).toBeGreaterThan(startUpBytes);
    // The last full collection is the probe's, after the store opened.
    expect(held.growingFactors.at(-1)).toBe(1.2);
  }, 180_000);

  it('lets the young generation grow and lets the old one double in a one-shot :memory: replay, whose views grow with the log', async () => {
    const run = await probed(cliMain, ['replay', log, '--store', ':memory:', '--json']);
    expect(run.heap.newSpaceBytes).toBeGreaterThan(startUpBytes);
    expect(run.growingFactors.at(-1)).toBe(2);
  }, 120_000);

  it('leaves a young generation size and a growing factor given to Node as given', async () => {
    const run = await probed(
      cliBin,
      ['replay', log, '--store', join(directory.path, 'given.db')],
      ['--max-semi-space-size=8', '--heap-growing-percent=50'],
    );
    // Grown past where a held one stays, up to the given maximum (two 8 MiB semi-spaces).
    expect(run.heap.newSpaceBytes).toBeGreaterThan(startUpBytes);
    expect(run.heap.newSpaceBytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(run.growingFactors.at(-1)).toBe(1.5);
  }, 120_000);
});

describe('the teamlog executable', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  /** As a shell runs it: `node` found on the PATH, for the bin's `#!/usr/bin/env node`. */
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  };
  delete env.TEAMLOG_STORE;
  const start = (command: string, args: readonly string[]): ChildProcess =>
    spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const finished = (child: ChildProcess): Promise<Finished> =>
    new Promise((resolve) => {
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  const run = (command: string, args: readonly string[]): Promise<Finished> => finished(start(command, args));

  it('runs as npx runs it (the link in node_modules/.bin) and as node dist/main.js, alike', async () => {
    const [linked, main] = await Promise.all([
      run(npxBin, ['--version']),
      run(process.execPath, [cliMain, '--version']),
    ]);
    expect(linked).toEqual(main);
    expect(linked.code).toBe(0);
    expect(linked.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  }, 60_000);

  it("exits with the command's code and error line through the bin", async () => {
    const linked = await run(npxBin, ['frobnicate']);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toBe('teamlog: unknown command "frobnicate" (see "teamlog --help")\n');
  }, 60_000);

  it('stops a long-running command on SIGTERM sent to the process the bin started, exiting 0', async () => {
    mkdirSync(join(directory.path, 'sessions'));
    const watch = start(npxBin, [
      'watch',
      join(directory.path, 'sessions'),
      '--store',
      join(directory.path, 'watched.db'),
    ]);
    const exited = finished(watch);
    const running = await new Promise<boolean>((resolve) => {
      let text = '';
      watch.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('\n')) resolve(true);
      });
      void exited.then(() => resolve(false));
    });
    expect(running).toBe(true);
    watch.kill('SIGTERM');
    const stopped = await exited;
    expect(stopped.stdout).toMatch(/^imported: 0 files/);
    expect(stopped.code).toBe(0);
  }, 60_000);
});
