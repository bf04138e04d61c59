/** The process exit codes of `teamlog` (docs/user-guide.md lists them). */
export const ExitCode = {
  ok: 0,
  /** `--strict` and the run found audit findings, team failures or rejected files. */
  findings: 1,
  usage: 2,
  badInput: 3,
  /** The store or the environment failed (unreachable server, disk error), or a bug. */
  failure: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
