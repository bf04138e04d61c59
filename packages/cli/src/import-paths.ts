import { promises as fs } from 'fs';
import { dirname, relative, sep } from 'path';
import { DiscoveredLog, FileImportResult, discoverSessionLogs, importSessionLog, scopeOfFile } from '@teamlog/dsh';
import { EventStore } from '@teamlog/store';
import { BadInput } from './cli-errors';
import { Progress } from './progress-bar';

/** One file's import, and whether the person named that file on the command line. */
export interface PathImport {
  readonly result: FileImportResult;
  /** Named directly (not found inside a directory): its rejection is bad input. */
  readonly named: boolean;
}

interface PlannedLog {
  readonly log: DiscoveredLog;
  readonly root: string;
  readonly named: boolean;
}

const statOrBadInput = async (path: string) => {
  try {
    return await fs.stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInput(code === 'ENOENT' ? 'no such file or directory' : `cannot read: ${(error as Error).message}`, { file: path });
  }
};

const plan = async (paths: readonly string[]): Promise<PlannedLog[]> => {
  const planned: PlannedLog[] = [];
  for (const path of paths) {
    const named = (await statOrBadInput(path)).isFile();
    const root = named ? dirname(path) : path;
    for await (const log of discoverSessionLogs(path)) planned.push({ log, root, named });
  }
  return planned;
};

/**
 * Import every session log under `paths` the way `importSessionLogs` of @teamlog/dsh does (scope
 * and recorded file relative to each path), one file at a time so a progress bar can follow.
 */
export const importPaths = async (paths: readonly string[], store: EventStore, progress: Progress): Promise<PathImport[]> => {
  const planned = await plan(paths);
  const imports: PathImport[] = [];
  progress.start(planned.length);
  try {
    for (const { log, root, named } of planned) {
      progress.update(imports.length, log.file);
      const recordedFile = relative(root, log.file).split(sep).join('/');
      const result = await importSessionLog(log.file, store, { scope: scopeOfFile(root, log.file), recordedFile });
      imports.push({ result, named });
    }
    progress.update(imports.length, '');
  } finally {
    progress.finish();
  }
  return imports;
};
