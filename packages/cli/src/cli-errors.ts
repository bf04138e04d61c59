import { CodedError, type FaultOf, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';

export interface InputLocation {
  readonly file?: string;
  readonly line?: number;
  /** Field path inside the line. */
  readonly path?: string;
}

/* The one error of the command line: a CliError's fault says whether the command line or the input is wrong. */

export type CliFault =
  /** The command line is wrong: unknown command or flag, missing or malformed argument (exit 2). */
  | {
      readonly code: 'UsageError';
      readonly detail: string;
      /** The command whose `--help` explains the usage, if one was recognised. */
      readonly command?: string;
    }
  /** The input is wrong: a missing path, a rejected file named on the command line, an unknown session (exit 3). */
  | { readonly code: 'BadInput'; readonly detail: string; readonly location: InputLocation };

/** `file:line N: path`, the form DecodeError and SessionLogRejected use. */
const where = ({ file, line, path }: InputLocation): string => {
  const place = [file, line === undefined ? undefined : `line ${line}`].filter((part) => part !== undefined).join(':');
  return [place === '' ? undefined : place, path].filter((part) => part !== undefined).join(': ');
};

const cliMessages: MessageTable<CliFault> = {
  UsageError: ({ detail }) => detail,
  BadInput: ({ detail, location }) => {
    const prefix = where(location);
    return prefix === '' ? detail : `${prefix}: ${detail}`;
  },
};

export class CliError<F extends CliFault = CliFault> extends CodedError<F> {
  override readonly name = 'CliError';
  constructor(fault: F) {
    super(fault, describeFault(cliMessages)(fault));
  }
}

export type UsageError = CliError<FaultOf<CliFault, 'UsageError'>>;
export type BadInput = CliError<FaultOf<CliFault, 'BadInput'>>;

/** Narrow an unknown error to a CliError, of the given codes when any are named. */
export const isCliError = codedErrorGuard<CliFault, CliError>(CliError);

export const usageError = (detail: string, command?: string): UsageError =>
  new CliError({ code: 'UsageError', detail, ...(command === undefined ? {} : { command }) });

export const badInput = (detail: string, location: InputLocation = {}): BadInput =>
  new CliError({ code: 'BadInput', detail, location });
