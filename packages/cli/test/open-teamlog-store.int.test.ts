import { join } from 'node:path';
import type { SqliteEventStore } from '@teamlog/store-sqlite';
import { withStore, writerPageCacheKiB } from '../src/open-teamlog-store';
import { temporaryDirectory } from './run-teamlog';

const pageCacheOf = (store: unknown): number =>
  Number((store as SqliteEventStore).database.pragma('cache_size', { simple: true }));

describe('openTeamlogStore', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  it("gives a SQLite connection that writes a small page cache (docs/historical-logs.md#memory), and leaves a reader's as SQLite has it", async () => {
    const location = { kind: 'sqlite', file: join(directory.path, 'cache.db') } as const;
    const writer = await withStore(location, { access: 'create' }, async ({ store }) => pageCacheOf(store));
    const reader = await withStore(location, { access: 'read' }, async ({ store }) => pageCacheOf(store));
    // A negative cache_size is in KiB.
    expect(writer).toBe(-writerPageCacheKiB);
    expect(reader).toBe(-16000);
  });

  it('writes a SQLite file an import-and-end command creates with a rollback journal; an existing file, and a new one another command creates, with WAL', async () => {
    const journalOf = (store: unknown): string =>
      String((store as SqliteEventStore).database.pragma('journal_mode', { simple: true }));
    const created = { kind: 'sqlite', file: join(directory.path, 'import-created.db') } as const;
    const other = { kind: 'sqlite', file: join(directory.path, 'other-created.db') } as const;
    const importAndEnd = { access: 'create', importAndEnd: true } as const;
    expect(await withStore(created, importAndEnd, async ({ store }) => journalOf(store))).toBe('delete');
    expect(await withStore(created, importAndEnd, async ({ store }) => journalOf(store))).toBe('wal');
    expect(await withStore(other, { access: 'create' }, async ({ store }) => journalOf(store))).toBe('wal');
  });
});
