import { InMemoryEventStore, migrateStore, type MigrationProgress, streamName, verifyMigration } from '@teamlog/store';
import { expectSameStreams, fillSource, FlakyTarget, migrationStoppedAfter } from '@teamlog/store-conformance';
import { v4 as uuidv4 } from 'uuid';
import type { EventId } from '@teamlog/events';

const event = (type = 'x') => ({ id: uuidv4() as EventId, type, data: {} });

describe('migrateStore between in-memory stores', () => {
  it('copies every stream with ids, types, data, metadata and revisions, and reports the counts', async () => {
    const source = new InMemoryEventStore();
    const target = new InMemoryEventStore();
    const streams = await fillSource(source);
    const phases: Array<MigrationProgress['phase']> = [];
    const report = await migrateStore({
      from: source,
      to: target,
      onProgress: (progress) => phases.push(progress.phase),
    });
    expect(report).toMatchObject({ streams: 6, events: 54, eventsCopied: 54, eventsAlreadyPresent: 0 });
    await expectSameStreams(source, target, streams);
    expect(phases[phases.length - 1]).toBe('done');
    expect(phases).toContain('verifying');
  });

  it('given an interruption after some streams, when run again, then it continues and copies each event once', async () => {
    const source = new InMemoryEventStore();
    const target = new InMemoryEventStore();
    const streams = await fillSource(source);
    const copiedBefore = (await migrationStoppedAfter(source, target, 3)).eventsCopied;
    expect(copiedBefore).toBeGreaterThan(0);
    expect(copiedBefore).toBeLessThan(54);

    const report = await migrateStore({ from: source, to: target });
    expect(report.eventsAlreadyPresent).toBe(copiedBefore);
    expect(report.eventsCopied).toBe(54 - copiedBefore);
    await expectSameStreams(source, target, streams);
  });

  it('given an append whose reply was lost after it was written, when run again, then nothing is duplicated', async () => {
    const source = new InMemoryEventStore();
    const inner = new InMemoryEventStore();
    const streams = await fillSource(source);
    const flaky = new FlakyTarget(inner);
    flaky.loseReplyOfAppend = 4;
    const failed = await migrateStore({ from: source, to: flaky }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'MigrationFailed' });
    expect((failed as Error).message).toContain('connection lost after the append was written');
    await migrateStore({ from: source, to: inner });
    await expectSameStreams(source, inner, streams);
  });

  it('copies only new source events on a later run', async () => {
    const source = new InMemoryEventStore();
    const target = new InMemoryEventStore();
    const streams = await fillSource(source, 2, 3);
    await migrateStore({ from: source, to: target });
    const [firstStream] = streams;
    if (firstStream === undefined) throw new Error('the fixture wrote no stream');
    await source.appendToStream(firstStream, [event('late')]);
    const report = await migrateStore({ from: source, to: target });
    expect(report).toMatchObject({ eventsCopied: 1, eventsAlreadyPresent: 6 });
    await expectSameStreams(source, target, streams);
  });

  it('splits runs of one stream into appends of at most maxBatchEvents and maxBatchBytes, each with an exact expected revision', async () => {
    const source = new InMemoryEventStore();
    const stream = streamName(`session-batch-${uuidv4()}`);
    await source.appendToStream(
      stream,
      Array.from({ length: 7 }, () => event()),
    );
    const byCount = new FlakyTarget(new InMemoryEventStore());
    await migrateStore({ from: source, to: byCount, maxBatchEvents: 3 });
    expect(byCount.appendSizes).toEqual([3, 3, 1]);
    expect(byCount.expectedRevisions).toEqual(['no_stream', 2n, 5n]);
    // Each event counts 4 bytes ({} and two bytes for the type "x").
    const byBytes = new FlakyTarget(new InMemoryEventStore());
    await migrateStore({ from: source, to: byBytes, maxBatchBytes: 7 });
    expect(byBytes.appendSizes).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('refuses a target whose stream holds different events, naming stream and revision', async () => {
    const source = new InMemoryEventStore();
    const target = new InMemoryEventStore();
    const stream = streamName(`session-diverged-${uuidv4()}`);
    await source.appendToStream(stream, [event(), event()]);
    await target.appendToStream(stream, [event()]);
    const error = await migrateStore({ from: source, to: target }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MigrationFailed' });
    expect((error as Error).message).toMatch(
      new RegExp(`^migration of stream ${stream} at revision 0: the target holds event .* where the source has event`),
    );
  });

  it('fails verification when the target stream is longer than the source', async () => {
    const source = new InMemoryEventStore();
    const target = new InMemoryEventStore();
    const stream = streamName(`session-longer-${uuidv4()}`);
    const shared = event();
    await source.appendToStream(stream, [shared]);
    await target.appendToStream(stream, [shared, event()]);
    const error = await migrateStore({ from: source, to: target }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MigrationVerificationFailed' });
    expect((error as Error).message).toContain(`${stream}: last revision 1 in the target, 0 in the source`);
  });

  it('verification reports a missing stream and a different last event', async () => {
    const target = new InMemoryEventStore();
    const present = streamName(`session-present-${uuidv4()}`);
    await target.appendToStream(present, [event()]);
    const mismatches = await verifyMigration(target, [
      { streamName: streamName('session-absent'), events: 1, lastRevision: 0n, lastEventId: uuidv4() as EventId },
      { streamName: present, events: 1, lastRevision: 0n, lastEventId: uuidv4() as EventId },
    ]);
    expect(mismatches.map((mismatch) => mismatch.detail)).toEqual([
      'last revision none in the target, 0 in the source',
      expect.stringMatching(/^last event .* in the target, .* in the source$/),
    ]);
  });
});
