import { appendFileSync, promises as fs } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { EventStreamParser } from './event-stream-parser';
import { startTeamlog } from './teamlog-child';

export interface FollowLatency {
  /** Line written -> `change` event, per measured line, in ms. */
  readonly samplesMs: readonly number[];
  readonly warmUpLines: number;
}

/** The first lines after start: the first growth of a log is read whole once (then only its tail). */
const warmUpLines = 5;
const changeTimeoutMs = 10_000;

/** A V4 synthetic log with at least `lines` lines, as the lines to write. */
const sourceLines = async (directory: string, lines: number): Promise<string[]> => {
  await fs.mkdir(directory, { recursive: true });
  for (let targetBytes = lines * 400; ; targetBytes *= 2) {
    const file = join(directory, 'latency-source.v4.jsonl');
    await generateSyntheticLog({ file, targetBytes, formatVersion: 4, sessionId: 'bench-follow' });
    const all = (await fs.readFile(file, 'utf8')).split(/(?<=\n)/).filter((line) => line !== '');
    if (all.length > lines) return all.slice(0, lines + 1);
  }
};

/** The `commit` of a `commit/prepare` checkpoint. */
const commitOf = (checkpoint: unknown): number =>
  typeof checkpoint === 'string' ? Number(checkpoint.split('/')[0]) : -1;

/**
 * `teamlog serve --follow ROOT` on a fresh SQLite store; this process subscribes to the
 * dashboard's event stream (`/api/stream`), then writes a log one line at a time, as the harness
 * does (open, append, close), and times each line from the write to the `change` event that
 * reports the views past it. Lines are written one after the other: each is measured alone.
 */
export const measureFollowLatency = async (
  directory: string,
  lines: number,
  progress: (text: string) => void,
): Promise<FollowLatency> => {
  const root = join(directory, 'latency-root');
  const file = join(root, 'bench-follow', 'session.v4.jsonl');
  const source = await sourceLines(directory, lines + warmUpLines);
  await fs.mkdir(join(root, 'bench-follow'), { recursive: true });
  await fs.writeFile(file, source[0] as string);
  const serve = startTeamlog(['serve', '--follow', root, '--store', join(directory, 'latency.db'), '--port', '0']);
  try {
    const url = await serve.firstLine;
    const parser = new EventStreamParser();
    let latest = -1;
    let wake: (() => void) | undefined;
    const stream = get(`${url}api/stream`, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        for (const event of parser.push(chunk)) {
          latest = Math.max(latest, commitOf((JSON.parse(event.data) as { checkpoint?: unknown }).checkpoint));
          wake?.();
        }
      });
    });
    const passed = (commit: number): Promise<void> =>
      new Promise((done, fail) => {
        const timer = setTimeout(
          () => fail(new Error(`no change event past ${commit} within ${changeTimeoutMs} ms`)),
          changeTimeoutMs,
        );
        const check = (): void => {
          if (latest <= commit) return;
          clearTimeout(timer);
          wake = undefined;
          done();
        };
        wake = check;
        check();
      });
    await passed(-1); // the `hello` event: subscribed
    const samplesMs: number[] = [];
    for (let index = 1; index < source.length; index += 1) {
      if (index % 200 === 0) progress(`follow: line ${index} of ${source.length - 1}`);
      const before = latest;
      const written = performance.now();
      appendFileSync(file, source[index] as string);
      await passed(before);
      if (index > warmUpLines) samplesMs.push(performance.now() - written);
    }
    stream.destroy();
    return { samplesMs, warmUpLines };
  } finally {
    const code = await serve.stop();
    if (code !== 0) progress(`follow: teamlog serve --follow exited ${code}`);
  }
};
