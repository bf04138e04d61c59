import { readFileSync } from 'node:fs';

/** Linux reports CPU times in /proc in USER_HZ ticks, fixed at 100 per second by the kernel's ABI. */
const ticksPerSecond = 100;

/**
 * The sum of two adjacent tick fields of a `/proc/<pid>/stat` line, in ms, counted after the command
 * name's closing parenthesis (the name may hold spaces): `index` 11 is field 14; undefined when malformed.
 */
const tickPairMs = (stat: string, index: number): number | undefined => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [first, second] = [Number(fields[index]), Number(fields[index + 1])];
  return Number.isFinite(first) && Number.isFinite(second) && stat.includes(')')
    ? ((first + second) * 1000) / ticksPerSecond
    : undefined;
};

/** User + system CPU time of a `/proc/<pid>/stat` line, in ms (fields 14 and 15); undefined when malformed. */
export const procStatCpuMs = (stat: string): number | undefined => tickPairMs(stat, 11);

/** The CPU time another process has used so far, in ms, or undefined where /proc is not available. */
export const processCpuMs = (pid: number): number | undefined => {
  try {
    return procStatCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
};

/**
 * User + system CPU time of the children a process has waited for (and of theirs), in ms: fields 16
 * and 17 of its `/proc/<pid>/stat` line; undefined when malformed.
 */
export const procStatChildrenCpuMs = (stat: string): number | undefined => tickPairMs(stat, 13);

/** The CPU time this process's finished and waited-for children have used so far, in ms; undefined without /proc. */
export const waitedChildrenCpuMs = (): number | undefined => {
  try {
    return procStatChildrenCpuMs(readFileSync('/proc/self/stat', 'utf8'));
  } catch {
    return undefined;
  }
};
