import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSessionLogs } from '@teamlog/dsh';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import type { EventId } from '@teamlog/events';
import {
  type CommitParticipant,
  type EventStore,
  HeadsOnlyEventStore,
  InMemoryEventStore,
  type RecordedEvent,
  streamName,
} from '@teamlog/store';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';

const repoRoot = join(__dirname, '..', '..', '..');
const roots = ['fixtures/synthetic', 'fixtures/dsh-logs'].map((root) => join(repoRoot, root));

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });

/** Import every root as `teamlog replay` does, the views folding inline; `batchEvents` cuts each file into many staged chunks. */
const replayed = async (store: EventStore, batchEvents: number) => {
  const projections = await TeamlogProjections.inMemory(store);
  const detach = projections.foldInline();
  const reports = [];
  for (const root of roots) reports.push(await importSessionLogs(root, store, { batchEvents, singlePassBytes: 0 }));
  detach?.();
  return { projections, reports };
};

describe('the one-shot replay (heads-only store): views fold each staged chunk', () => {
  it('given files cut into many chunks, then the views equal a catch-up over a store that keeps every event', async () => {
    const heads = new HeadsOnlyEventStore();
    const oneShot = await replayed(heads, 3);
    const kept = new InMemoryEventStore();
    const reference = await replayed(kept, 2000);
    const caughtUp = await TeamlogProjections.inMemory(kept);
    await caughtUp.catchUp();
    const outcomes = (reports: typeof oneShot.reports) =>
      reports.flatMap((report) => report.files.map((file) => [file.file, file.events, file.rejected?.reason]));
    expect(outcomes(oneShot.reports)).toEqual(outcomes(reference.reports));
    expect(oneShot.reports.some((report) => report.appended > 0)).toBe(true);
    expect(everything(oneShot.projections.views())).toEqual(everything(caughtUp.views()));
  });

  it('given a unit of a new session the views folded and then dropped, then the views are as before it and the replay goes on', async () => {
    const heads = new HeadsOnlyEventStore();
    const projections = await TeamlogProjections.inMemory(heads);
    projections.foldInline();
    const event = (id: string) => ({ id: id as EventId, type: 'x/unknown', data: {} });
    await heads.appendToStream(streamName('sessionheader-a'), [event('a-0')]);
    const before = everything(projections.views());
    const checkpoint = projections.checkpoint;
    const unit = heads.stageAppends();
    expect(unit.stagesWhileValidating).toBe(true);
    await unit.append(streamName('sessionheader-b'), [event('b-0')], { expectedRevision: 'no_stream' });
    await unit.abort();
    expect(everything(projections.views())).toEqual(before);
    expect(projections.checkpoint).toEqual(checkpoint);
    await expect(heads.appendToStream(streamName('session-c'), [event('c-0')])).resolves.toMatchObject({
      nextExpectedRevision: 0n,
    });
  });
});

/** A log past the reader's 1 MiB read buffer whose last line a `turn/start` codec refuses. */
const logRejectedAtItsEnd = async (file: string, sessionId: string): Promise<void> => {
  await generateSyntheticLog({ file, targetBytes: 3 * 1024 * 1024, formatVersion: 4, sessionId });
  const lines = (await fs.readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
  const last = JSON.parse(lines[lines.length - 1] as string) as { seq: number; time: number };
  await fs.appendFile(
    file,
    `${JSON.stringify({ type: 'turn/start', seq: last.seq + 1, time: last.time, data: { turn: 'one' } })}\n`,
  );
};

/** Beside the inline views: how many events of each session were folded as staged, before their unit's end. */
const stagedCounter = (): CommitParticipant & { readonly staged: Map<string, number> } => {
  const staged = new Map<string, number>();
  let checkpoint: RecordedEvent['position'] | undefined;
  let folded: RecordedEvent['position'] | undefined;
  const fold = (events: readonly RecordedEvent[]) => {
    folded = events[events.length - 1]?.position ?? folded;
  };
  return {
    staged,
    get checkpoint() {
      return checkpoint;
    },
    undoesStaged: () => true,
    stage: (events) => {
      for (const event of events) staged.set(event.streamName, (staged.get(event.streamName) ?? 0) + 1);
      fold(events);
    },
    prepare: fold,
    committed: () => {
      checkpoint = folded;
    },
    aborted: () => {
      folded = checkpoint;
    },
  };
};

describe('a many-file one-shot replay reads every file once', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-one-read-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  /** The views and checkpoint of a one-shot replay of `root`, and what each file's fold staged. */
  const replayOnce = async (root: string) => {
    const heads = new HeadsOnlyEventStore();
    const projections = await TeamlogProjections.inMemory(heads, { oneShot: true });
    const detach = projections.foldInline();
    const counter = stagedCounter();
    heads.participate(counter);
    const report = await importSessionLogs(root, heads, { singlePassBytes: 0 });
    detach?.();
    return { report, views: projections.views().replay(), checkpoint: projections.checkpoint, counter };
  };

  it('given a later file rejected at its last line, then it was folded as it was read and the views equal a replay without it', async () => {
    const root = join(directory, 'logs');
    await fs.cp(join(repoRoot, 'fixtures/synthetic/v4-late-delivery'), root, { recursive: true });
    const without = await replayOnce(root);
    const bad = 'synthetic-0000-4000-8000-0000000000bd';
    // Between the Lead's log and the analyst's in the order the replay reads them.
    await fs.mkdir(join(root, 'late-bad'));
    await logRejectedAtItsEnd(join(root, 'late-bad', 'session.v4.jsonl'), bad);

    const withBad = await replayOnce(root);

    const fates = withBad.report.files.map((file) => [file.file.split('/').slice(-2)[0], file.rejected?.reason]);
    expect(fates).toEqual([
      ['late-analyst', undefined],
      ['late-bad', 'invalid-event'],
      ['late-lead', undefined],
    ]);
    expect(withBad.counter.staged.get(`session-${bad}`)).toBeGreaterThan(1000);
    expect(withBad.views).toEqual(without.views);
    expect(withBad.checkpoint).toEqual(without.checkpoint);
  });
});
