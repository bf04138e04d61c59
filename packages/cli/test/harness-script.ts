import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeZstdFrame, initZstdEncoder } from '@teamlog/dsh';

/** One step of a harness-writer-child.js script. */
export type HarnessOperation =
  | { readonly op: 'append'; readonly file: string; readonly base64: string }
  | { readonly op: 'rename'; readonly from: string; readonly to: string }
  | { readonly op: 'sleep'; readonly ms: number };

const append = (file: string, bytes: Uint8Array | string): HarnessOperation => ({
  op: 'append',
  file,
  base64: Buffer.from(bytes).toString('base64'),
});
const pause = (ms: number): HarnessOperation => ({ op: 'sleep', ms });

/** The lines of a log file, each with its newline. */
export const linesOf = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split(/(?<=\n)/)
    .filter((line) => line !== '');

/**
 * A raw log written line by line; every `tornEvery`-th line in two appends with a pause between
 * (the reader sees a torn last line meanwhile).
 */
export const rawLineByLine = (file: string, lines: readonly string[], tornEvery: number): HarnessOperation[] =>
  lines.flatMap((line, index) => {
    if (index === 0 || index % tornEvery !== 0) return [append(file, line)];
    const cut = Math.max(1, Math.floor(line.length / 2));
    return [append(file, line.slice(0, cut)), pause(3), append(file, line.slice(cut))];
  });

/** A zstd log written in frames of 1 to 3 lines; every other frame in two appends (a torn frame meanwhile). */
export const zstdInFrames = async (file: string, lines: readonly string[]): Promise<HarnessOperation[]> => {
  await initZstdEncoder();
  const operations: HarnessOperation[] = [append(file, encodeZstdFrame(Buffer.from(lines[0] as string)))];
  for (let start = 1, frame = 0; start < lines.length; frame += 1) {
    const end = Math.min(lines.length, start + 1 + (frame % 3));
    const bytes = encodeZstdFrame(Buffer.from(lines.slice(start, end).join('')));
    if (frame % 2 === 0) operations.push(append(file, bytes));
    else operations.push(append(file, bytes.subarray(0, 7)), pause(3), append(file, bytes.subarray(7)));
    start = end;
  }
  return operations;
};

/**
 * A V0 log migrated to V1 after `before` of its lines: the harness publishes `session.v1.jsonl`
 * (version renamed, every event kept) by rename, then writes there. The V0 file stays as history.
 */
export const migratedToV1 = (
  directory: string,
  lines: readonly string[],
  before: number,
  tornEvery: number,
): HarnessOperation[] => {
  const v1Header = `${JSON.stringify({ ...(JSON.parse(lines[0] as string) as object), version: 1 })}\n`;
  const v1 = join(directory, 'session.v1.jsonl');
  return [
    ...rawLineByLine(join(directory, 'session.jsonl'), lines.slice(0, before), tornEvery),
    append(`${v1}.tmp`, [v1Header, ...lines.slice(1, before)].join('')),
    { op: 'rename', from: `${v1}.tmp`, to: v1 },
    ...lines.slice(before).flatMap((line) => [append(v1, line)]),
  ];
};

/** The writers of several sessions at once: their operations interleaved one by one, a pause after each. */
export const interleaved = (
  writers: ReadonlyArray<readonly HarnessOperation[]>,
  pauseMs: number,
): HarnessOperation[] => {
  const operations: HarnessOperation[] = [];
  const longest = Math.max(...writers.map((writer) => writer.length));
  for (let index = 0; index < longest; index += 1) {
    for (const writer of writers) {
      const operation = writer[index];
      if (operation !== undefined) operations.push(operation, pause(pauseMs));
    }
  }
  return operations;
};
