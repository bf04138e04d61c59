import { PassThrough } from 'node:stream';
import type { CliIo } from '../src/cli-io';

/** A CliIo that records what a command writes, for in-process tests. */
export interface CapturedIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

export const capturedIo = (overrides: Partial<CliIo> = {}): CapturedIo => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const streams = { input: new PassThrough(), output: new PassThrough() };
  return {
    stdout: (text) => void stdout.push(text),
    stderr: (text) => void stderr.push(text),
    env: {},
    cwd: process.cwd(),
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    stderrColumns: 80,
    untilInterrupted: () => new Promise(() => undefined),
    stdio: () => streams,
    ...overrides,
    out: () => stdout.join(''),
    err: () => stderr.join(''),
  };
};
