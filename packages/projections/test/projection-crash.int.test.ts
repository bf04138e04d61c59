import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { GlobalPosition, RecordedEvent } from '@teamlog/store';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { TeamlogProjections, foldViewsAsOf, readDashboardStatistics, readReplayView } from '@teamlog/projections';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { appendSession, claim, relayItem, splice, userMessage } from '@teamlog/test-support/session-log-builder';
import { tempFile } from './temp-file';

/*
 * A real process runs the projection over a real SQLite file (compiled dist code: npm test builds
 * first) and is killed with SIGKILL mid-projection. The views left in the file must be exactly the
 * fold of the events up to the checkpoint left beside them: nothing skipped, nothing applied twice.
 */

const storeDist = resolve(__dirname, '../../store-sqlite/dist/index.js');

const projectorScript = `
const { writeSync } = require('node:fs');
const { SqliteEventStore, sqliteProjections } = require(${JSON.stringify(storeDist)});
const [file, batchSize, crashAtCommit] = process.argv.slice(1).map((value, index) => (index === 0 ? value : Number(value)));
let commits = 0;
const store = SqliteEventStore.open(file);
sqliteProjections(store, {
  batchSize,
  onViewsWritten: () => {
    commits += 1;
    // Inside the commit transaction, after the views and before the checkpoint.
    if (commits === crashAtCommit) process.kill(process.pid, 'SIGKILL');
    writeSync(1, 'commit ' + commits + '\\n');
  },
})
  .then((projections) => projections.catchUp())
  .then(() => store.close())
  .catch((error) => { console.error(error); process.exit(1); });
`;

const runProjector = (
  file: string,
  batchSize: number,
  crashAtCommit = 0,
): { child: ChildProcess; commits: () => number; exited: Promise<string | null> } => {
  const child = spawn(process.execPath, ['-e', projectorScript, file, String(batchSize), String(crashAtCommit)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<string | null>((done) => child.on('exit', (code, signal) => done(signal ?? String(code))));
  return { child, commits: () => output.split('\n').filter((line) => line.startsWith('commit')).length, exited };
};

/** A store with the synthetic fixtures and a long tail of inbox traffic, so a projection takes many commits. */
const prepareStore = async (file: string): Promise<GlobalPosition[]> => {
  const store = SqliteEventStore.open(file);
  await importFixtures(store, syntheticFixtures);
  for (let round = 0; round < 400; round += 1) {
    const target = round % 2 === 0 ? 'v0-reviewer' : 'direct-reviewer';
    const item = relayItem(`load-${round}`, 'direct-lead', 'lead');
    await appendSession(store, target, [splice('next-step', 0, [item]), claim('next-step', 1), userMessage(item)]);
  }
  const positions: GlobalPosition[] = [];
  for await (const event of store.readAll()) positions.push((event as RecordedEvent).position);
  await store.close();
  return positions;
};

/** The views the file holds equal the fold of exactly the events up to its checkpoint. */
const expectViewsMatchCheckpoint = async (file: string): Promise<GlobalPosition | undefined> => {
  const store = SqliteEventStore.open(file);
  const persisted = await sqliteProjections(store);
  const checkpoint = persisted.checkpoint;
  const expected = checkpoint === undefined ? undefined : await foldViewsAsOf(store, { position: checkpoint });
  if (expected !== undefined) {
    expect(persisted.views().replay()).toEqual(readReplayView(expected));
    expect(persisted.views().statistics()).toEqual(readDashboardStatistics(expected));
  }
  await store.close();
  return checkpoint;
};

const expectResumeEqualsRebuild = async (file: string): Promise<void> => {
  const store = SqliteEventStore.open(file);
  const resumed = await sqliteProjections(store);
  await resumed.catchUp();
  const fromZero = await TeamlogProjections.inMemory(store);
  await fromZero.catchUp();
  expect(resumed.views().replay()).toEqual(fromZero.views().replay());
  expect(resumed.views().statistics()).toEqual(fromZero.views().statistics());
  await store.close();
};

describe('a projection process killed mid-projection', () => {
  it('killed between writing views and writing the checkpoint: the file holds the previous commit, whole', async () => {
    const { file, cleanup } = tempFile();
    const positions = await prepareStore(file);
    const batchSize = 50;
    const projector = runProjector(file, batchSize, 7);
    expect(await projector.exited).toBe('SIGKILL');
    const checkpoint = await expectViewsMatchCheckpoint(file);
    expect(checkpoint).toEqual(positions[6 * batchSize - 1]);
    await expectResumeEqualsRebuild(file);
    cleanup();
  }, 120_000);

  it('killed at an arbitrary moment: the views match the checkpoint and resuming equals a rebuild', async () => {
    const { file, cleanup } = tempFile();
    const positions = await prepareStore(file);
    const projector = runProjector(file, 7);
    while (projector.commits() < 40) await new Promise((done) => setTimeout(done, 2));
    projector.child.kill('SIGKILL');
    expect(await projector.exited).toBe('SIGKILL');
    const checkpoint = await expectViewsMatchCheckpoint(file);
    expect(checkpoint).toBeDefined();
    expect(checkpoint).not.toEqual(positions[positions.length - 1]);
    await expectResumeEqualsRebuild(file);
    cleanup();
  }, 120_000);
});
