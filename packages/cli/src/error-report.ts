import { CodedError, DecodeError, type Fault } from '@teamlog/events';
import { SessionLogRejected } from '@teamlog/dsh';
import { isStoreError } from '@teamlog/store';
import { isCliError } from './cli-errors';
import { ExitCode } from './exit-code';

export interface ErrorReport {
  readonly exitCode: ExitCode;
  /** One line for stderr. */
  readonly line: string;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

const badInputTypes = [SessionLogRejected, DecodeError];

/**
 * The errors that carry a code: each boundary's one error type (StoreError, TeamLogError,
 * ToolError, ProjectionError, SqliteStoreError, PostgresError, CliError, ...) extends CodedError,
 * so the CLI need not load every adapter to report its errors.
 */
const codedError = (error: unknown): CodedError<Fault> | undefined =>
  error instanceof CodedError ? (error as CodedError<Fault>) : undefined;

/** The exit code of each code that is not a failure (exit 4); the one table the CLI maps codes with. */
const exitCodeOf: Readonly<Record<string, ExitCode>> = {
  BadInput: ExitCode.badInput,
  SessionNotExportable: ExitCode.badInput,
  ExportTargetRefused: ExitCode.badInput,
  CorruptViewRow: ExitCode.badInput,
  SchemaTooNew: ExitCode.badInput,
  NotATeamlogStore: ExitCode.badInput,
  StoreNeedsUpgrade: ExitCode.badInput,
};

/** The exit code and the single line a person sees; the stack only with `--debug`. */
export const reportError = (error: unknown): ErrorReport => {
  if (isCliError(error, 'UsageError')) {
    const help = error.fault.command === undefined ? 'teamlog --help' : `teamlog ${error.fault.command} --help`;
    return { exitCode: ExitCode.usage, line: `${oneLine(error.message)} (see "${help}")` };
  }
  const coded = codedError(error);
  const mapped = coded === undefined ? undefined : exitCodeOf[coded.code];
  if (coded !== undefined && mapped !== undefined) return { exitCode: mapped, line: oneLine(coded.message) };
  if (badInputTypes.some((type) => error instanceof type))
    return { exitCode: ExitCode.badInput, line: oneLine((error as Error).message) };
  // The store's server stayed away through its retries, or failed: the environment, not a bug, so no stack trace is offered.
  if (isStoreError(error, 'StoreFailure')) return { exitCode: ExitCode.failure, line: oneLine(error.message) };
  // A coded error is named by its code (UnknownTarget: ...), as the classes of each case were before.
  const label = coded?.code ?? (error instanceof Error ? error.name : 'Error');
  const message = error instanceof Error ? `${label === 'Error' ? '' : `${label}: `}${error.message}` : String(error);
  return { exitCode: ExitCode.failure, line: `${oneLine(message)} (run with --debug for the stack trace)` };
};
