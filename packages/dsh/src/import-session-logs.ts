import { promises as fs } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { EventStore } from '@teamlog/store';
import { prefetchLog } from './log-prefetch';
import { type UnreadableDirectory, discoverSessionLogs } from './session-file-discovery';
import { prefetchedLogs } from './prefetched-logs';
import {
  type FileImportResult,
  type ImportOptions,
  importPrefetchedLog,
  prefetchOptionsOf,
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
  // The next log's walk and first reads are in flight while this one imports (prefetched-logs.ts).
  const readOptions = prefetchOptionsOf(options);
  const walk = (onUnreadable: (unreadable: UnreadableDirectory) => void) => discoverSessionLogs(root, onUnreadable);
  for await (const found of prefetchedLogs(walk, (file) => prefetchLog(file, readOptions))) {
    if (found.kind === 'unreadable') {
      report(unreadableDirectoryResult(found.unreadable.directory, found.unreadable.error));
      continue;
    }
    const { file } = found.log;
    const recordedFile = relative(rootDirectory, file).split(sep).join('/');
    report(
      await importPrefetchedLog(found.prefetched, store, {
        ...options,
        scope: scopeOfFile(rootDirectory, file),
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
