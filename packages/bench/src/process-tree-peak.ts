import { readFileSync, readdirSync } from 'node:fs';
import { procStatusBytes } from './proc-status';

/** The peak RSS of a process and every process it started, as far as sampling saw them. */
export interface TreePeak {
  /**
   * The sum of each process's own peak (`VmHWM`, last read while it ran): the whole tree's peak
   * when it is one process, an upper bound when it is several (their peaks need not coincide).
   * Undefined without `/proc`.
   */
  readonly peakRssBytes: number | undefined;
  /** How many processes the tree held, all samples together (1: the command re-executed nothing). */
  readonly processes: number;
}

export interface RunningTreePeak {
  /** What the samples saw so far. */
  seen(): TreePeak;
  /** Stop sampling and return what was seen. */
  stop(): TreePeak;
}

const childrenOf = (pid: number): number[] => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(/\s+/)
        .filter((text) => text !== '')
        .map(Number),
    );
  } catch {
    return [];
  }
};

/** `pid` and its descendants now. */
export const processTree = (pid: number): number[] => [pid, ...childrenOf(pid).flatMap(processTree)];

const peakOf = (pid: number): number | undefined => {
  try {
    return procStatusBytes(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM');
  } catch {
    return undefined;
  }
};

/**
 * Sample the peak RSS of `pid` and its descendants every `intervalMs` until stopped: a command
 * that runs its work in a second process (a re-executed Node) must count both
 * (docs/historical-logs.md#memory).
 */
export const startTreePeakSampling = (pid: number, intervalMs: number): RunningTreePeak => {
  const peaks = new Map<number, number>();
  const sample = (): void => {
    for (const each of processTree(pid)) {
      const peak = peakOf(each);
      if (peak !== undefined) peaks.set(each, Math.max(peaks.get(each) ?? 0, peak));
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  const seen = (): TreePeak => {
    const values = [...peaks.values()];
    return {
      peakRssBytes: values.length === 0 ? undefined : values.reduce((sum, peak) => sum + peak, 0),
      processes: peaks.size,
    };
  };
  return {
    seen,
    stop: () => {
      clearInterval(timer);
      return seen();
    },
  };
};
