import { badInput, type BadInput } from './cli-errors';
import type { PathImport } from './import-paths';

/** A file the person named that was rejected as a whole is bad input (files found inside a directory are only reported). */
export const rejectedNamedFile = (imports: readonly PathImport[]): BadInput | undefined => {
  const rejected = imports.filter(({ named, result }) => named && result.rejected !== undefined);
  const first = rejected[0]?.result.rejected;
  if (first === undefined) return undefined;
  const more = rejected.length > 1 ? ` (and ${rejected.length - 1} more rejected files)` : '';
  return badInput(`${first.message}${more}`);
};
