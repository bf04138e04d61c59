import { valueFlag } from './argument-parser';
import { usageError } from './cli-errors';

/** The interval `--poll` alone means (the library's default). */
export const defaultPollArgumentMs = 1000;

/**
 * `--poll[=MS]`: poll every MS milliseconds instead of watching. The argument parser's value
 * flags need a value, so a bare `--poll` is given the default before parsing (`withBarePoll`):
 * the interval goes after `=`, never in the next argument.
 */
export const pollFlag = valueFlag(
  '[=MS]',
  `poll the files every MS milliseconds instead of watching them (--poll alone: every ${defaultPollArgumentMs} ms)`,
);

export const withBarePoll = (argv: readonly string[]): string[] => {
  const end = argv.indexOf('--');
  return argv.map((argument, index) =>
    argument === '--poll' && (end < 0 || index < end) ? `--poll=${defaultPollArgumentMs}` : argument,
  );
};

/** The polling interval `--poll=MS` asks for, or undefined to watch. */
export const pollArgument = (text: string | undefined, command: string): number | undefined => {
  if (text === undefined) return undefined;
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 3_600_000)
    throw usageError(
      `${command}: --poll expects a number of milliseconds from 1 to 3600000 (--poll=500), got "${text}"`,
      command,
    );
  return ms;
};
