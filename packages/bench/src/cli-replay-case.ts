import { spawn } from 'node:child_process';
import { createWriteStream, promises as fs, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { procStatusBytes } from './proc-status';

/** The `teamlog` executable this bench measures (built by `npm run bench`, which builds first). */
const teamlogMain = resolve(__dirname, '../../cli/dist/main.js');

/** Packed V0 rows hold about 3.6 events per 230 bytes of synthetic log. */
const bytesPerEvent = 64;

export interface V0LeadLog {
  readonly file: string;
  readonly events: number;
  readonly bytes: number;
}

/** A synthetic V0 Lead log (packed rows) of about `events` events, in a directory of its own. */
export const writeV0LeadLog = async (directory: string, events: number): Promise<V0LeadLog> => {
  const file = join(directory, 'v0-lead', 'session.v0.jsonl');
  await fs.mkdir(join(directory, 'v0-lead'), { recursive: true });
  const written = await generateSyntheticLog({ file, targetBytes: events * bytesPerEvent, formatVersion: 0 });
  return { file, events: written.events, bytes: written.bytes };
};

export interface CliReplayRun {
  readonly elapsedMs: number;
  /** Events the JSON document says were imported (checks the run did the work). */
  readonly events: number;
  /** The process's peak RSS (`VmHWM`), as last read while it ran (every 50 ms); undefined without `/proc`. */
  readonly peakRssBytes: number | undefined;
}

/** The peak RSS the kernel saw for `pid` so far, or undefined (not Linux, or the process is gone). */
const peakRssOf = (pid: number | undefined): number | undefined => {
  try {
    return pid === undefined ? undefined : procStatusBytes(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM');
  } catch {
    return undefined;
  }
};

/**
 * `teamlog replay FILE --store STORE --json` (`:memory:` unless told), as a person runs it: a whole
 * process, stdout to a file; `nodeFlags` go to Node before the script (a heap limit).
 */
export const runCliReplay = async (
  file: string,
  outputFile: string,
  store = ':memory:',
  nodeFlags: readonly string[] = [],
): Promise<CliReplayRun> => {
  const started = performance.now();
  let peakRssBytes: number | undefined;
  const code = await new Promise<number | null>((done, fail) => {
    const out = createWriteStream(outputFile);
    const child = spawn(process.execPath, [...nodeFlags, teamlogMain, 'replay', file, '--store', store, '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const sampler = setInterval(() => {
      peakRssBytes = peakRssOf(child.pid) ?? peakRssBytes;
    }, 50);
    child.stdout.pipe(out);
    child.on('error', (error) => {
      clearInterval(sampler);
      fail(error);
    });
    child.on('close', (exit) => {
      clearInterval(sampler);
      out.end(() => done(exit));
    });
  });
  const elapsedMs = performance.now() - started;
  if (code !== 0) throw new Error(`teamlog replay ${file} --store ${store} --json exited ${code}`);
  const document = JSON.parse(await fs.readFile(outputFile, 'utf8')) as { sessions: Array<{ events: number }> };
  return { elapsedMs, events: document.sessions.reduce((sum, session) => sum + session.events, 0), peakRssBytes };
};
