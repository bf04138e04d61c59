import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/* Child processes run the compiled packages (npm test builds before jest), as a real host would. */

const dist = (pkg: string) => resolve(__dirname, `../../${pkg}/dist/index.js`);

const prelude = `
const { createTeamLog } = require(${JSON.stringify(dist('team'))});
const { SqliteEventStore } = require(${JSON.stringify(dist('store-sqlite'))});
const { uuidV7Ids } = require(${JSON.stringify(dist('events'))});
const fail = (error) => { console.error(error && error.stack || error); process.exit(1); };
const open = async (file, teamId, as) => {
  const store = SqliteEventStore.open(file);
  const teamlog = createTeamLog({ store, ids: uuidV7Ids });
  const session = as === 'lead' ? await teamlog.openLead(teamId) : await teamlog.openMember(teamId, as);
  return { store, teamlog, session };
};
`;

/** Sends `count` messages as `as` to `target`, printing each accepted id as soon as send returns. */
export const sendLoopScript = `${prelude}
const [file, teamId, as, target, count] = process.argv.slice(1);
(async () => {
  const { store, teamlog, session } = await open(file, teamId, as);
  for (let n = 0; n < Number(count); n += 1) {
    const id = await session.send({ target, message: as + ' #' + n });
    process.stdout.write(id + '\\n');
  }
  await teamlog.dispose();
  await store.close();
})().catch(fail);
`;

/** Sends one message, prints its id, then waits to be killed: the message is accepted, never claimed. */
export const sendThenHangScript = `${prelude}
const [file, teamId, as, target] = process.argv.slice(1);
(async () => {
  const { session } = await open(file, teamId, as);
  const id = await session.send({ target, message: 'accepted before the crash' });
  process.stdout.write(id + '\\n');
  setInterval(() => undefined, 1000);
})().catch(fail);
`;

export interface RunningChild {
  readonly child: ChildProcess;
  /** Every complete stdout line so far. */
  readonly lines: string[];
  readonly exited: Promise<number | null>;
  readonly stderr: () => string;
}

export const runChild = (script: string, args: readonly string[]): RunningChild => {
  const child = spawn(process.execPath, ['-e', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffer = '';
  let errors = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line.length > 0));
  });
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, lines, exited, stderr: () => errors };
};

/** Resolves once the child has printed `count` lines (or rejects if it exits first). */
export const untilLines = async (running: RunningChild, count: number): Promise<void> => {
  let exited = false;
  void running.exited.then(() => (exited = true));
  while (running.lines.length < count) {
    if (exited) throw new Error(`child exited after ${running.lines.length} lines: ${running.stderr()}`);
    await new Promise((done) => setTimeout(done, 5));
  }
};
