import type { Readable, Writable } from 'node:stream';

/** Everything a command touches outside the store: injected so tests can run commands in process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  /** Resolves once stdout has taken what was written so far (a pipe drained); absent where writes are taken at once. */
  readonly stdoutDrained?: () => Promise<void>;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdoutIsTerminal: boolean;
  readonly stderrIsTerminal: boolean;
  /** Terminal width for the progress bar. */
  readonly stderrColumns: number;
  /** Resolves when the person asks to stop (Ctrl-C); only long-running commands listen. */
  readonly untilInterrupted: () => Promise<void>;
  /** The raw standard streams, for a command that speaks a protocol on them (`teamlog mcp`); opened on first use. */
  readonly stdio: () => { readonly input: Readable; readonly output: Writable };
}

/** The real process. */
export const processIo = (): CliIo => ({
  stdout: (text) => process.stdout.write(text),
  stdoutDrained: () =>
    process.stdout.writableNeedDrain
      ? new Promise((resolve) => process.stdout.once('drain', () => resolve()))
      : Promise.resolve(),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  stdoutIsTerminal: process.stdout.isTTY === true,
  stderrIsTerminal: process.stderr.isTTY === true,
  stderrColumns: process.stderr.columns ?? 80,
  untilInterrupted: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
  stdio: () => ({ input: process.stdin, output: process.stdout }),
});
