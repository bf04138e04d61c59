import { ExitCode } from './exit-code';

/** With `--strict`, anything worth a person's attention fails the run. */
export const strictExitCode = (strict: boolean, problems: number): ExitCode =>
  strict && problems > 0 ? ExitCode.findings : ExitCode.ok;
