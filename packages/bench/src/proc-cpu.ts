import { readFileSync } from 'node:fs';

/** Linux reports CPU times in /proc in USER_HZ ticks, fixed at 100 per second by the kernel's ABI. */
const ticksPerSecond = 100;

/**
 * User + system CPU time of a `/proc/<pid>/stat` line, in ms (fields 14 and 15, counted after the
 * command name's closing parenthesis, since the name may hold spaces); undefined when malformed.
 */
export const procStatCpuMs = (stat: string): number | undefined => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After ") " the fields start at field 3 (state): utime is field 14, stime field 15.
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return Number.isFinite(utime) && Number.isFinite(stime) && stat.includes(')')
    ? ((utime + stime) * 1000) / ticksPerSecond
    : undefined;
};

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
export const procStatChildrenCpuMs = (stat: string): number | undefined => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [cutime, cstime] = [Number(fields[13]), Number(fields[14])];
  return Number.isFinite(cutime) && Number.isFinite(cstime) && stat.includes(')')
    ? ((cutime + cstime) * 1000) / ticksPerSecond
    : undefined;
};

/** The CPU time this process's finished and waited-for children have used so far, in ms; undefined without /proc. */
export const waitedChildrenCpuMs = (): number | undefined => {
  try {
    return procStatChildrenCpuMs(readFileSync('/proc/self/stat', 'utf8'));
  } catch {
    return undefined;
  }
};
