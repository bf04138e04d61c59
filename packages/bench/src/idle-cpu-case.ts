import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { processCpuMs } from './proc-cpu';
import { startTeamlog } from './teamlog-child';

export interface IdleCorpus {
  readonly root: string;
  readonly files: number;
  readonly directories: number;
}

/** A sessions root as the harness lays it out: project directories of session directories, one small log each. */
export const writeIdleCorpus = async (directory: string, files: number): Promise<IdleCorpus> => {
  const root = join(directory, 'idle-root');
  const projects = Math.max(1, Math.ceil(files / 100));
  for (let index = 0; index < files; index += 1) {
    const session = join(root, `--project-${index % projects}--`, `session-${index}`);
    await fs.mkdir(session, { recursive: true });
    await generateSyntheticLog({
      file: join(session, 'session.v4.jsonl'),
      targetBytes: 1500,
      formatVersion: 4,
      sessionId: `idle-${index}`,
    });
  }
  return { root, files, directories: 1 + projects + files };
};

export interface IdleCpu {
  /** CPU time over the idle period, as % of one core. */
  readonly percentOfCore: number;
  readonly idleMs: number;
  /** From start to the first batch's line (the first import of the corpus). */
  readonly startMs: number;
}

const settleMs = 2000;

/**
 * A long-running `teamlog` command on an idle root: once it printed its first line (the first
 * import is done) and settled, its CPU time (user + system, from /proc) over `idleMs` while
 * nothing changes.
 */
export const measureIdleCpu = async (args: readonly string[], idleMs: number): Promise<IdleCpu> => {
  const started = performance.now();
  const running = startTeamlog(args);
  try {
    await running.firstLine;
    const startMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const before = processCpuMs(running.pid);
    const from = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const after = processCpuMs(running.pid);
    const elapsed = performance.now() - from;
    if (before === undefined || after === undefined)
      throw new Error('no /proc/<pid>/stat: the idle CPU case needs Linux');
    return { percentOfCore: ((after - before) / elapsed) * 100, idleMs: elapsed, startMs };
  } finally {
    await running.stop();
  }
};
