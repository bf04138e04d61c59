import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { createSchemaFile, groupsOf, openRawInserter } from '../src/raw-insert-baseline';
import { sendConcurrently, startTeam } from '../src/send-case';
import { dumpRowsAfter, lastPosition, readRows } from '../src/stored-rows';
import { tempDirectory } from './temp-directory';

describe('send case and its raw-insert baseline (real SQLite)', () => {
  const temp = tempDirectory();
  afterAll(() => temp.remove());

  it('accepts every message of concurrent senders and the baseline stores the same rows raw', async () => {
    const store = SqliteEventStore.open(join(temp.path, 'send.sqlite'));
    const team = await startTeam(store, 4);
    const before = lastPosition(store);
    expect(await sendConcurrently(team, 3, 10)).toBe(10);
    await team.teamlog.dispose();
    const rowsFile = join(temp.path, 'rows.jsonl');
    expect(await dumpRowsAfter(store, before, rowsFile)).toBe(10);
    await store.close();

    const rows = readRows(rowsFile);
    expect(rows.every((row) => row.type === 'teamlog/inbox/accepted')).toBe(true);
    const rawFile = join(temp.path, 'raw.sqlite');
    await createSchemaFile(rawFile);
    const inserter = openRawInserter(rawFile);
    groupsOf(rows, 3).forEach((group) => inserter.insert(group));
    inserter.close();
    const raw = SqliteEventStore.open(rawFile);
    try {
      const stored = raw.database
        .prepare(
          'SELECT stream_name, revision, event_id, type, data, metadata, recorded_at FROM events ORDER BY position',
        )
        .all();
      expect(
        stored.map((row) =>
          JSON.parse(JSON.stringify(row, (_, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))),
        ),
      ).toEqual(rows);
    } finally {
      await raw.close();
    }
  });

  it('names the file, line and field of a rows file line that is not a stored row', async () => {
    const file = join(temp.path, 'bad-rows.jsonl');
    const row = { stream_name: 's', revision: 0, event_id: 'e', type: 't', data: '{}', metadata: null, recorded_at: 1 };
    await writeFile(file, `${JSON.stringify(row)}\n${JSON.stringify({ ...row, revision: 'one' })}\n`);
    expect(() => readRows(file)).toThrow(`${file}:line 2: row.revision:`);
  });

  it('refuses more senders than members', async () => {
    const store = SqliteEventStore.open(join(temp.path, 'few.sqlite'));
    try {
      const team = await startTeam(store, 2);
      await expect(sendConcurrently(team, 3, 3)).rejects.toThrow(RangeError);
      await team.teamlog.dispose();
    } finally {
      await store.close();
    }
  });
});
