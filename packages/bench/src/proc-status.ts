import { readFileSync } from 'node:fs';

/**
 * A `kB` field of `/proc/<pid>/status` in bytes (`VmHWM` is the peak resident set size the kernel
 * saw, `VmRSS` the current one); undefined when the field is absent (not Linux, or a kernel thread).
 */
export const procStatusBytes = (status: string, field: 'VmHWM' | 'VmRSS'): number | undefined => {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
};

/** This process's peak RSS by the kernel's count, or undefined where `/proc` is not available. */
export const peakRssFromProc = (): number | undefined => {
  try {
    return procStatusBytes(readFileSync('/proc/self/status', 'utf8'), 'VmHWM');
  } catch {
    return undefined;
  }
};
