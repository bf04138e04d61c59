import { promises as fs } from 'fs';
import { FileImportResult, discoverSessionLogs, importSessionLogs } from '@teamlog/dsh';
import { EventStore } from '@teamlog/store';
import { BadInput } from './cli-errors';
import { Progress } from './progress-bar';

/** One file's import, and whether the person named that file on the command line. */
export interface PathImport {
  readonly result: FileImportResult;
  /** Named directly (not found inside a directory): its rejection is bad input. */
  readonly named: boolean;
}

/** A path named on the command line that can be read: a file, or a directory to search. */
export interface UsablePath {
  readonly path: string;
  readonly isFile: boolean;
}

export interface CheckedPaths {
  readonly usable: readonly UsablePath[];
  /** One per bad path, in the order given. */
  readonly problems: readonly BadInput[];
}

const why = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return `cannot read it (${code ?? (error as Error).message})`;
};

/** Whether a named path can be imported, decided before the store is opened (so a bad path never creates one). */
const checkPath = async (path: string): Promise<UsablePath | BadInput> => {
  try {
    const stats = await fs.stat(path);
    if (stats.isFile()) {
      await fs.access(path, fs.constants.R_OK);
      return { path, isFile: true };
    }
    if (!stats.isDirectory()) return new BadInput('not a regular file or directory (a FIFO, device or socket is never read as a log)', { file: path });
    await fs.readdir(path);
    return { path, isFile: false };
  } catch (error) {
    return new BadInput(why(error), { file: path });
  }
};

export const checkPaths = async (paths: readonly string[]): Promise<CheckedPaths> => {
  const checked = await Promise.all(paths.map(checkPath));
  return {
    usable: checked.filter((each): each is UsablePath => !(each instanceof BadInput)),
    problems: checked.filter((each): each is BadInput => each instanceof BadInput),
  };
};

/** The bad paths as one error line: the first, and how many more. */
export const badPaths = (problems: readonly BadInput[]): BadInput | undefined => {
  const [first, ...rest] = problems;
  if (first === undefined) return undefined;
  return rest.length === 0 ? first : new BadInput(`${first.message} (and ${rest.length} more bad ${rest.length === 1 ? 'path' : 'paths'}: ${rest.map((each) => each.location.file).join(', ')})`);
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
export const importPaths = async (paths: readonly UsablePath[], store: EventStore, progress: Progress, options: { readonly singlePassBytes?: number } = {}): Promise<PathImport[]> => {
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
