import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory for a real SQLite file, removed by the returned cleanup. */
export const tempStoreFile = (name = 'team.db'): { file: string; cleanup: () => void } => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-team-'));
  return { file: join(directory, name), cleanup: () => rmSync(directory, { recursive: true, force: true }) };
};
