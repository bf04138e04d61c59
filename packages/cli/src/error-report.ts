import { DecodeError } from '@teamlog/events';
import { ExportTargetRefused, SessionLogRejected, SessionNotExportable } from '@teamlog/dsh';
import { CorruptViewRow } from '@teamlog/projections';
import { StoreFailure } from '@teamlog/store';
import { NotATeamlogStore, SchemaTooNew, StoreNeedsUpgrade } from '@teamlog/store-sqlite';
import { BadInput, UsageError } from './cli-errors';
import { ExitCode } from './exit-code';

export interface ErrorReport {
  readonly exitCode: ExitCode;
  /** One line for stderr. */
  readonly line: string;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

const badInputTypes = [
  BadInput,
  SessionLogRejected,
  DecodeError,
  SessionNotExportable,
  CorruptViewRow,
  SchemaTooNew,
  NotATeamlogStore,
  StoreNeedsUpgrade,
  ExportTargetRefused,
];

/** The exit code and the single line a person sees; the stack only with `--debug`. */
export const reportError = (error: unknown): ErrorReport => {
  if (error instanceof UsageError) {
    const help = error.command === undefined ? 'teamlog --help' : `teamlog ${error.command} --help`;
    return { exitCode: ExitCode.usage, line: `${oneLine(error.message)} (see "${help}")` };
  }
  if (badInputTypes.some((type) => error instanceof type))
    return { exitCode: ExitCode.badInput, line: oneLine((error as Error).message) };
  // The store's server stayed away through its retries, or failed: the environment, not a bug, so no stack trace is offered.
  if (error instanceof StoreFailure) return { exitCode: ExitCode.failure, line: oneLine(error.message) };
  const message =
    error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return { exitCode: ExitCode.failure, line: `${oneLine(message)} (run with --debug for the stack trace)` };
};
