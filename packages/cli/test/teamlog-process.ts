import { type ChildProcess, spawn } from 'node:child_process';
import { cliMain, repoRoot } from './run-teamlog';

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child process with its output collected as it comes, line by line on stdout. */
export interface Running {
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly stderr: () => string;
  readonly exited: Promise<Finished>;
  /** Resolves with the first stdout line `match` accepts (rejects when the process exits first). */
  line(match?: (line: string) => boolean): Promise<string>;
}

export const startProcess = (command: string, args: readonly string[]): Running => {
  const env = { ...process.env };
  delete env.TEAMLOG_STORE;
  const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env });
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  let partial = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stdout += text;
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    listeners.forEach((listener) => listener());
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<Finished>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  let ended = false;
  void exited.then(() => {
    ended = true;
    listeners.forEach((listener) => listener());
  });
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    line: (match = () => true) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = lines.find(match);
          if (found !== undefined) {
            listeners.delete(check);
            resolve(found);
          } else if (ended) {
            listeners.delete(check);
            reject(new Error(`${args.join(' ')} exited before printing the line; stderr: ${stderr}`));
          }
        };
        listeners.add(check);
        check();
      }),
  };
};

/** `teamlog ...` as a child process that runs until stopped. */
export const startTeamlog = (args: readonly string[]): Running => startProcess(process.execPath, [cliMain, ...args]);

/** `teamlog ...` to the end, without blocking this process (other processes run meanwhile). */
export const runTeamlogAsync = (args: readonly string[]): Promise<Finished> => startTeamlog(args).exited;
