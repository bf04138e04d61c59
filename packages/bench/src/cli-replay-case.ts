import { spawn } from 'child_process';
import { createWriteStream, promises as fs } from 'fs';
import { join, resolve } from 'path';
import { performance } from 'perf_hooks';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';

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
}

/** `teamlog replay FILE --store :memory: --json`, as a person runs it: a whole process, stdout to a file. */
export const runCliReplay = async (file: string, outputFile: string): Promise<CliReplayRun> => {
  const started = performance.now();
  const code = await new Promise<number | null>((done, fail) => {
    const out = createWriteStream(outputFile);
    const child = spawn(process.execPath, [teamlogMain, 'replay', file, '--store', ':memory:', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.pipe(out);
    child.on('error', fail);
    child.on('close', (exit) => out.end(() => done(exit)));
  });
  const elapsedMs = performance.now() - started;
  if (code !== 0) throw new Error(`teamlog replay ${file} --store :memory: --json exited ${code}`);
  const document = JSON.parse(await fs.readFile(outputFile, 'utf8')) as { sessions: Array<{ events: number }> };
  return { elapsedMs, events: document.sessions.reduce((sum, session) => sum + session.events, 0) };
};
