import { type ChildProcess, spawn } from 'node:child_process';

/* Child processes run the compiled packages (npm test builds before jest), as a real host would. */

export interface RunningChild {
  readonly child: ChildProcess;
  /** Every complete stdout line so far (all of them once `exited` resolves). */
  readonly lines: string[];
  readonly exited: Promise<number | null>;
  readonly stderr: () => string;
}

/** Runs node with `nodeArgs` (a script file, or `-e` and its source, then the script's arguments). */
const runNode = (nodeArgs: readonly string[]): RunningChild => {
  const child = spawn(process.execPath, [...nodeArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  // 'close', not 'exit': a child's last stdout lines may still be unread when it exits.
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, lines, exited, stderr: () => errors };
};

/** Runs the script file at `script` with `args`. */
export const runChild = (script: string, args: readonly string[]): RunningChild => runNode([script, ...args]);

/** Runs `source` as an inline script (`node -e`) with `args`. */
export const runInlineChild = (source: string, args: readonly string[]): RunningChild =>
  runNode(['-e', source, ...args]);

/** Resolves once the child has printed `count` lines (or rejects if it exits first). */
export const untilLines = async (running: RunningChild, count: number): Promise<void> => {
  let exited = false;
  void running.exited.then(() => (exited = true));
  while (running.lines.length < count) {
    if (exited) throw new Error(`child exited after ${running.lines.length} lines: ${running.stderr()}`);
    await new Promise((done) => setTimeout(done, 5));
  }
};
