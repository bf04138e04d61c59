import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

/** The repository root: fixtures/ and the bundled CLI are found from here. */
export const repoRoot = resolve(__dirname, '..', '..', '..');
/** The bundled CLI, the file `bin/teamlog.js` runs (`npm run build` makes it). */
export const cliMain = join(repoRoot, 'packages', 'cli', 'dist', 'teamlog.js');

export interface TeamlogRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** Run the compiled CLI as a child process (npm test builds it before jest runs). */
export const runTeamlog = (args: readonly string[], options: RunOptions = {}): TeamlogRun => {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (options.env?.TEAMLOG_STORE === undefined) delete env.TEAMLOG_STORE;
  const result = spawnSync(process.execPath, [cliMain, ...args], {
    cwd: options.cwd ?? repoRoot,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error !== undefined) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

/** A temporary directory removed by `cleanup`. */
export const temporaryDirectory = (): { readonly path: string; readonly cleanup: () => void } => {
  const path = mkdtempSync(join(tmpdir(), 'teamlog-cli-'));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
};

/** Count the events of a SQLite store file directly, not through the CLI under test. */
export const storedEventCount = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return Number((db.prepare('SELECT COUNT(*) AS count FROM events').get() as { count: number | bigint }).count);
  } finally {
    db.close();
  }
};

export interface StoredEventRow {
  readonly position: number;
  readonly revision: number;
  readonly type: string;
  readonly metadata: string | null;
}

/** The events of one stream with their `$all` positions, read straight from the SQLite file. */
export const storedStream = (file: string, stream: string): StoredEventRow[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare('SELECT position, revision, type, metadata FROM events WHERE stream_name = ? ORDER BY revision')
      .all(stream)
      .map((row) => {
        const { position, revision, type, metadata } = row as {
          position: number;
          revision: number;
          type: string;
          metadata: string | null;
        };
        return { position: Number(position), revision: Number(revision), type, metadata };
      });
  } finally {
    db.close();
  }
};

/**
 * Run the CLI without the power to bypass file permissions, so read-only files and directories
 * are read-only to it. As root (CI runs as root) the child keeps uid 0, which still owns the
 * checkout, but loses CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (setpriv, util-linux).
 */
export const runTeamlogUnprivileged = (args: readonly string[], options: RunOptions = {}): TeamlogRun => {
  if (process.getuid?.() !== 0) return runTeamlog(args, options);
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (options.env?.TEAMLOG_STORE === undefined) delete env.TEAMLOG_STORE;
  const result = spawnSync(
    'setpriv',
    ['--bounding-set=-dac_override,-dac_read_search', '--', process.execPath, cliMain, ...args],
    {
      cwd: options.cwd ?? repoRoot,
      env,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (result.error !== undefined) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};
