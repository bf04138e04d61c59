import { type FileImportResult, discoverSessionLogs, importSessionLogs } from '@teamlog/dsh';
import type { EventStore } from '@teamlog/store';
import { badInput, type BadInput, isCliError } from './cli-errors';
import type { Progress } from './progress-bar';
import { type UsablePath, checkLogPath } from './log-path-argument';

export type { UsablePath } from './log-path-argument';

/** One file's import, and whether the person named that file on the command line. */
export interface PathImport {
  readonly result: FileImportResult;
  /** Named directly (not found inside a directory): its rejection is bad input. */
  readonly named: boolean;
}

export interface CheckedPaths {
  readonly usable: readonly UsablePath[];
  /** One per bad path, in the order given. */
  readonly problems: readonly BadInput[];
}

export const checkPaths = async (paths: readonly string[]): Promise<CheckedPaths> => {
  const checked = await Promise.all(paths.map(checkLogPath));
  return {
    usable: checked.filter((each): each is UsablePath => !isCliError(each, 'BadInput')),
    problems: checked.filter((each): each is BadInput => isCliError(each, 'BadInput')),
  };
};

/** The bad paths as one error line: the first, and how many more. */
export const badPaths = (problems: readonly BadInput[]): BadInput | undefined => {
  const [first, ...rest] = problems;
  if (first === undefined) return undefined;
  return rest.length === 0
    ? first
    : badInput(
        `${first.message} (and ${rest.length} more bad ${rest.length === 1 ? 'path' : 'paths'}: ${rest.map((each) => each.fault.location.file).join(', ')})`,
      );
};

const countLogs = async (path: string): Promise<number> => {
  let count = 0;
  for await (const _log of discoverSessionLogs(path)) count += 1;
  return count;
};

/**
 * Import every session log under each usable path with `importSessionLogs` (scopes and recorded
 * files relative to that path). The logs are counted first so the progress bar has an end.
 */
export const importPaths = async (
  paths: readonly UsablePath[],
  store: EventStore,
  progress: Progress,
  options: { readonly singlePassBytes?: number } = {},
): Promise<PathImport[]> => {
  const total = (await Promise.all(paths.map(({ path }) => countLogs(path)))).reduce((sum, count) => sum + count, 0);
  const imports: PathImport[] = [];
  progress.start(total);
  try {
    for (const { path, isFile } of paths) {
      await importSessionLogs(path, store, {
        ...options,
        onFile: (result) => {
          imports.push({ result, named: isFile });
          progress.update(imports.length, result.file);
        },
      });
    }
  } finally {
    progress.finish();
  }
  return imports;
};
