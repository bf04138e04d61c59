import { readFileSync } from 'node:fs';

export interface ProcessIo {
  /** Bytes this process caused to be read from storage. */
  readonly readBytes: number;
  /** Bytes this process caused to be written to storage (page cache writeback included). */
  readonly writeBytes: number;
}

const field = (text: string, name: string): number | undefined => {
  const match = new RegExp(`^${name}:\\s+(\\d+)$`, 'm').exec(text);
  return match === null ? undefined : Number(match[1]);
};

/** `/proc/<pid>/io` as storage bytes read and written; undefined when a field is missing. */
export const parseProcIo = (text: string): ProcessIo | undefined => {
  const readBytes = field(text, 'read_bytes');
  const writeBytes = field(text, 'write_bytes');
  return readBytes === undefined || writeBytes === undefined ? undefined : { readBytes, writeBytes };
};

/** This process's storage I/O so far, or undefined where `/proc/self/io` is not available. */
export const processIo = (): ProcessIo | undefined => {
  try {
    return parseProcIo(readFileSync('/proc/self/io', 'utf8'));
  } catch {
    return undefined;
  }
};
