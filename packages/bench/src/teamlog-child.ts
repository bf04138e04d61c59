import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The `teamlog` executable the bench measures, the bundled CLI (built by `npm run bench`, which builds first). */
const teamlogMain = resolve(__dirname, '../../cli/dist/teamlog.js');

/** A long-running `teamlog` command (watch, serve) in a child process. */
export interface TeamlogChild {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the first line the command prints on stdout (rejects if it exits first). */
  readonly firstLine: Promise<string>;
  /** Ctrl-C, then its exit code. */
  stop(): Promise<number | null>;
}

export const startTeamlog = (args: readonly string[]): TeamlogChild => {
  const child = spawn(process.execPath, [teamlogMain, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const firstLine = new Promise<string>((done, fail) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) done(text.slice(0, end));
    });
    void exited.then((code) => fail(new Error(`teamlog ${args.join(' ')} exited ${code} first: ${stderr.trim()}`)));
  });
  firstLine.catch(() => undefined);
  return {
    child,
    pid: child.pid as number,
    firstLine,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
};
