import { promises as fs, Stats } from 'fs';
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

const statOrBadInput = async (path: string): Promise<Stats> => {
  try {
    return await fs.stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInput(code === 'ENOENT' ? 'no such file or directory' : `cannot read: ${(error as Error).message}`, { file: path });
  }
};

const countLogs = async (path: string): Promise<number> => {
  let count = 0;
  for await (const _log of discoverSessionLogs(path)) count += 1;
  return count;
};

/**
 * Import every session log under each path with `importSessionLogs` (scopes and recorded files
 * relative to that path). The logs are counted first so the progress bar has an end.
 */
export const importPaths = async (paths: readonly string[], store: EventStore, progress: Progress, options: { readonly singlePassBytes?: number } = {}): Promise<PathImport[]> => {
  const named = await Promise.all(paths.map(async (path) => (await statOrBadInput(path)).isFile()));
  const total = (await Promise.all(paths.map(countLogs))).reduce((sum, count) => sum + count, 0);
  const imports: PathImport[] = [];
  progress.start(total);
  try {
    for (const [index, path] of paths.entries()) {
      const isFile = named[index] === true;
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
