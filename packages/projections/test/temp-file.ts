import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory for a real SQLite file, removed by the returned cleanup. */
export const tempFile = (name = 'store.db'): { file: string; cleanup: () => void } => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-projections-'));
  return { file: join(directory, name), cleanup: () => rmSync(directory, { recursive: true, force: true }) };
};
