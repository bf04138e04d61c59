import { promises as fs } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { EventStore } from '@teamlog/store';
import { discoverSessionLogs } from './session-file-discovery';
import {
  type FileImportResult,
  type ImportOptions,
  importSessionLog,
  scopeOfFile,
  unreadableDirectoryResult,
} from './session-importer';

export interface ImportLogsOptions extends ImportOptions {
  /** Called after each file, in order (progress for a CLI). */
  readonly onFile?: (result: FileImportResult) => void;
}

export interface ImportReport {
  readonly root: string;
  readonly files: readonly FileImportResult[];
  readonly imported: number;
  readonly rejected: number;
  readonly notSessionLogs: number;
  readonly appended: number;
}

/**
 * Import every session log under `root` (a file, a session directory, or a root of them,
 * recursively). One file's rejection never stops the others, nor does a subdirectory that cannot be
 * listed (it is reported as an unreadable entry); each result says what happened.
 * Normalised snapshot fixtures are scoped by their directory relative to `root`.
 */
export const importSessionLogs = async (
  root: string,
  store: EventStore,
  options: ImportLogsOptions = {},
): Promise<ImportReport> => {
  const rootDirectory = (await fs.stat(root)).isFile() ? dirname(root) : root;
  const files: FileImportResult[] = [];
  const report = (result: FileImportResult): void => {
    files.push(result);
    options.onFile?.(result);
  };
  for await (const log of discoverSessionLogs(root, ({ directory, error }) =>
    report(unreadableDirectoryResult(directory, error)),
  )) {
    const recordedFile = relative(rootDirectory, log.file).split(sep).join('/');
    report(
      await importSessionLog(log.file, store, {
        ...options,
        scope: scopeOfFile(rootDirectory, log.file),
        recordedFile,
      }),
    );
  }
  const rejected = files.filter((file) => file.rejected !== undefined);
  return {
    root,
    files,
    imported: files.length - rejected.length,
    rejected: rejected.filter((file) => file.rejected?.reason !== 'not-a-session-log').length,
    notSessionLogs: rejected.filter((file) => file.rejected?.reason === 'not-a-session-log').length,
    appended: files.reduce((sum, file) => sum + file.appended, 0),
  };
};
