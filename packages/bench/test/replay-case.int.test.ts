import { join } from 'node:path';
import { inMemoryReplayTarget, replayLogs } from '../src/replay-case';
import { writeTeamCorpus } from '../src/write-team-corpus';
import { tempDirectory } from './temp-directory';

describe('the bench in-memory replay case', () => {
  const temp = tempDirectory();
  afterAll(() => temp.remove());

  it('folds views read once, as `teamlog replay --store :memory:` opens them', async () => {
    const corpus = await writeTeamCorpus(join(temp.path, 'corpus'), { events: 2000, teams: 1, membersPerTeam: 2 });
    const target = inMemoryReplayTarget();
    const outcome = await replayLogs(corpus.root, target.store, target.projectionsOf);
    await target.close();
    const sessions = [...outcome.projections.views().state.sessions.values()];
    expect(sessions.length).toBe(corpus.files.length);
    // Views read once update a lifecycle in place: a turn's end leaves its step `undefined`, where
    // the kept views' fold makes a lifecycle without the field (session-lifecycle.ts).
    expect(sessions.every((facts) => Object.hasOwn(facts.lifecycle, 'step'))).toBe(true);
  });
});
