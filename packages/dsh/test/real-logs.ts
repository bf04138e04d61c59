import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { SqliteEventStore, type SqliteEventStoreOptions } from '@teamlog/store-sqlite';

/* The real logs copied from the reference harness's public repositories (fixtures/dsh-logs). */

export const realLogsRoot = join(__dirname, '..', '..', '..', 'fixtures', 'dsh-logs');

const walk = (directory: string): string[] =>
  readdirSync(directory, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? walk(join(directory, entry.name)) : [join(directory, entry.name)]));

const firstLineIsSessionHeader = (file: string): boolean => {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  try {
    const value = JSON.parse(first) as { type?: unknown };
    return value.type === 'session';
  } catch {
    return false;
  }
};

const all = walk(realLogsRoot).filter((file) => file.endsWith('.jsonl'));
/** Every real *.jsonl whose first line is a session header (decided here, independently of the reader). */
export const realSessionLogs = all.filter(firstLineIsSessionHeader);
/** The other real *.jsonl files (stream-json and notification transcripts). */
export const realNonSessionFiles = all.filter((file) => !firstLineIsSessionHeader(file));

export const shortName = (file: string): string => relative(realLogsRoot, file);

/**
 * Real fixtures that the recovery rule (docs/rules.md#recovery-damaged-tail) does not accept whole. They are
 * hand-made test fixtures upstream (a seq that starts at 1; delta chunks trimmed out), and the
 * harness's reader treats them exactly so.
 */
export const expectedOutcomes: Record<
  string,
  { rejected?: 'damaged-history'; recovery?: { reason: 'seq-gap'; keptEvents: number } }
> = {
  'mirror-toninfo/packages/test-support/acp-snapshot/tests/fixtures/suite/authored-error/session.jsonl': {
    rejected: 'damaged-history',
  },
  'mirror-toninfo/apps/web/tests/snapshots/cordis-tool-round/session.jsonl': { rejected: 'damaged-history' },
  'mirror-toninfo/packages/test-support/acp-snapshot/tests/fixtures/suite/blocked-log/session.jsonl': {
    recovery: { reason: 'seq-gap', keptEvents: 0 },
  },
};

/** Logical events a file holds, counted naively from its text (packed rows count their members). */
export const naiveEventCount = (file: string): number =>
  readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .reduce((count, line) => {
      const value = JSON.parse(line) as { type?: string; data?: { texts?: unknown[]; args?: unknown[] } };
      const packed = value.type?.endsWith('-chunks') === true;
      return count + (packed ? (value.data?.texts?.length ?? value.data?.args?.length ?? 0) : 1);
    }, 0);

export interface TempStore {
  readonly store: SqliteEventStore;
  readonly directory: string;
  readonly dispose: () => Promise<void>;
}

/** A real SQLite store on a temporary file. */
export const openTempStore = async (options: SqliteEventStoreOptions = {}): Promise<TempStore> => {
  const directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-dsh-'));
  const store = SqliteEventStore.open(join(directory, 'events.sqlite'), options);
  return {
    store,
    directory,
    dispose: async () => {
      await store.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
};
