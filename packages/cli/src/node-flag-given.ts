/**
 * Whether the person running Node gave it `flag` (`--max-semi-space-size`), on the command line
 * (`process.execArgv`) or in `NODE_OPTIONS`: V8 reads `-` and `_` alike, with or without a value.
 * teamlog leaves a flag so given alone (docs/historical-logs.md#memory).
 */
export const nodeFlagGiven = (flag: string, execArgv: readonly string[], nodeOptions: string | undefined): boolean => {
  const wanted = normalised(flag);
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some(
    (arg) => normalised(arg.split('=')[0] ?? '') === wanted,
  );
};

const normalised = (flag: string): string => flag.replace(/_/g, '-');
