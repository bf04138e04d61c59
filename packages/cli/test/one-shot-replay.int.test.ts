import { join } from 'node:path';
import { importSessionLogs } from '@teamlog/dsh';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import type { EventId } from '@teamlog/events';
import { type EventStore, HeadsOnlyEventStore, InMemoryEventStore, streamName } from '@teamlog/store';

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

  it('given a unit the views folded and then dropped, then the next append is refused as not kept, so the replay runs again on a store that keeps the events', async () => {
    const heads = new HeadsOnlyEventStore();
    const projections = await TeamlogProjections.inMemory(heads);
    projections.foldInline();
    const event = (id: string) => ({ id: id as EventId, type: 'x/unknown', data: {} });
    await heads.appendToStream(streamName('session-a'), [event('a-0')]);
    const unit = heads.stageAppends();
    await unit.append(streamName('session-b'), [event('b-0')], { expectedRevision: 'no_stream' });
    await unit.abort();
    await expect(heads.appendToStream(streamName('session-c'), [event('c-0')])).rejects.toMatchObject({
      code: 'PayloadsNotKept',
    });
  });
});
