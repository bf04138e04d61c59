import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importSessionLogs } from '@teamlog/dsh';

import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { writeTeamCorpus } from '../src/write-team-corpus';
import { tempDirectory } from './temp-directory';

const options = { events: 4000, teams: 2, membersPerTeam: 3 };

describe('written team corpus', () => {
  const temp = tempDirectory();
  afterAll(() => temp.remove());

  it('writes the same bytes for the same options', async () => {
    const [a, b] = await Promise.all([
      writeTeamCorpus(join(temp.path, 'a'), options),
      writeTeamCorpus(join(temp.path, 'b'), options),
    ]);
    expect(a.files.map((file) => file.slice(a.root.length))).toEqual(b.files.map((file) => file.slice(b.root.length)));
    a.files.forEach((file, index) => expect(readFileSync(file)).toEqual(readFileSync(b.files[index] as string)));
    expect(a.bytes).toBe(b.bytes);
  });

  it('replays into SQLite without a rejected file, a team failure or an audit finding', async () => {
    const corpus = await writeTeamCorpus(join(temp.path, 'replay'), options);
    const store = SqliteEventStore.open(join(temp.path, 'replay.sqlite'));
    try {
      const report = await importSessionLogs(corpus.root, store);
      expect({ imported: report.imported, rejected: report.rejected, appended: report.appended }).toEqual({
        imported: 8,
        rejected: 0,
        appended: corpus.summary.events,
      });
      expect(report.files.flatMap((file) => file.unknownTypes)).toEqual([]);
      const projections = await sqliteProjections(store);
      await projections.catchUp();
      const views = projections.views();
      const teams = views.teams();
      expect(teams.map((team) => [team.failure, team.members.length])).toEqual([
        [null, 3],
        [null, 3],
      ]);
      expect(views.audit()).toEqual([]);
      expect(views.inbox()).toHaveLength(corpus.summary.delivered + corpus.summary.relayed);
      const legacy = teams.flatMap((team) => team.legacyMessages);
      expect(legacy).toHaveLength(corpus.summary.queued);
      expect(legacy.filter((message) => message.status === 'delivered')).toHaveLength(corpus.summary.delivered);
      expect(new Set(legacy.map((message) => message.recordVersion))).toEqual(new Set([1, 2]));
      expect(teams.reduce((sum, team) => sum + team.tasks.length, 0)).toBe(corpus.summary.tasks);
    } finally {
      await store.close();
    }
  });
});
