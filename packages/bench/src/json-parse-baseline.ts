import { createReadStream } from 'node:fs';
import { discoverSessionLogs } from '@teamlog/dsh';

export interface BaselineCount {
  readonly files: number;
  readonly lines: number;
  /** Lines after each file's header: the events of a log without packed rows. */
  readonly events: number;
  readonly bytes: number;
}

const readChunkBytes = 1024 * 1024;
const newline = 0x0a;

/**
 * The complete lines of a file in batches, split as the session log reader splits them (1 MiB
 * reads, `indexOf` on each chunk, a line across chunks joined once, one batch per chunk): the
 * baseline does the same I/O and the same number of awaits.
 */
export async function* fileLineBatches(file: string): AsyncGenerator<readonly Buffer[]> {
  let pending: Buffer[] = [];
  for await (const chunk of createReadStream(file, { highWaterMark: readChunkBytes })) {
    const bytes = chunk as Buffer;
    const batch: Buffer[] = [];
    let start = 0;
    for (let end = bytes.indexOf(newline, start); end !== -1; end = bytes.indexOf(newline, start)) {
      const tail = bytes.subarray(start, end);
      batch.push(pending.length === 0 ? tail : Buffer.concat([...pending, tail]));
      pending = [];
      start = end + 1;
    }
    if (start < bytes.length) pending.push(bytes.subarray(start));
    if (batch.length > 0) yield batch;
  }
}

/**
 * The replay baseline: read every session log under `root` (the files the importer reads) and
 * `JSON.parse` each line, nothing more.
 */
export const parseEveryLine = async (root: string): Promise<BaselineCount> => {
  let files = 0;
  let lines = 0;
  let bytes = 0;
  let objects = 0;
  for await (const log of discoverSessionLogs(root)) {
    files += 1;
    for await (const batch of fileLineBatches(log.file)) {
      for (const line of batch) {
        const value: unknown = JSON.parse(line.toString('utf8'));
        if (typeof value === 'object' && value !== null) objects += 1;
        lines += 1;
        bytes += line.length + 1;
      }
    }
  }
  if (objects !== lines) throw new Error(`${lines - objects} lines under ${root} are not JSON objects`);
  return { files, lines, events: lines - files, bytes };
};
