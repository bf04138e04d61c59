import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir, removed by `remove`. */
export const tempDirectory = (): { readonly path: string; readonly remove: () => void } => {
  const path = mkdtempSync(join(tmpdir(), 'teamlog-bench-test-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
};
