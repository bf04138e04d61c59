import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { InMemoryEventStore, sessionHeaderStream, sessionStream } from '@teamlog/store';
import { type FollowOptions, importSessionLog, importSessionLogs } from '../src';
import { comparableViews } from '@teamlog/test-support/follow-convergence';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';
import {
  append,
  fixturesRoot,
  follow,
  linesOf,
  oneShotContents,
  readStream,
  stopFollowers,
  storeContents,
  streamLength,
} from './follow-support';

// Real files, real timers and two polling modes: on a loaded two-core machine a test can need more than jest's default.
jest.setTimeout(90_000);
import { type TempStore, openTempStore } from './real-logs';

const v0Lead = join(fixturesRoot, 'synthetic/v0-mailbox/v0-lead/session.jsonl');
const v4Lead = join(fixturesRoot, 'synthetic/v4-direct/direct-lead/session.v4.jsonl');
const v4Reviewer = join(fixturesRoot, 'synthetic/v4-direct/direct-reviewer/session.v4.jsonl');

let temp: TempStore;
let root: string;
beforeEach(async () => {
  temp = await openTempStore();
  root = join(temp.directory, 'sessions');
  await fs.mkdir(root);
});
afterEach(async () => {
  await stopFollowers();
  await temp.dispose();
});

const modes: ReadonlyArray<readonly [string, FollowOptions]> = [
  ['fs.watch', {}],
  ['polling', { poll: true, pollMs: 25 }],
];

describe.each(modes)('following a sessions root (%s)', (_mode, options) => {
  it('imports what the root holds, then only the lines appended since, a torn last line once it is complete', async () => {
    const lines = linesOf(v0Lead);
    const file = join(root, 'project', 'v0-lead', 'session.jsonl');
    await append(file, lines.slice(0, 5).join(''));
    const following = await follow(root, temp.store, options);
    try {
      const stream = sessionStream('v0-lead' as SessionId);
      expect(following.follower.first).toMatchObject({ number: 0, files: 1, appended: 4 });
      for (const [index, line] of lines.slice(5).entries()) {
        // Every third line is written in two parts: the first part alone is a torn tail, never an error.
        if (index % 3 === 0) {
          await append(file, line.slice(0, 20));
          await new Promise((resolve) => setTimeout(resolve, 15));
          expect(await streamLength(temp.store, stream)).toBe(4 + index);
          await append(file, line.slice(20));
        } else await append(file, line);
        await following.until(
          `event ${4 + index} is stored`,
          async () => (await streamLength(temp.store, stream)) === 5 + index,
        );
      }
      expect(following.batches.flatMap((batch) => batch.warnings)).toEqual([]);
    } finally {
      await following.follower.stop();
    }
    expect(await storeContents(temp.store)).toEqual(
      await oneShotContents(root, join(temp.directory, 'reference.sqlite')),
    );
  });

  it('picks up new session directories at any depth, and their logs as they grow', async () => {
    const following = await follow(root, temp.store, options);
    try {
      expect(following.follower.first).toMatchObject({ files: 0, appended: 0 });
      const lead = join(root, 'a', 'b', 'c', 'direct-lead', 'session.v4.jsonl');
      const reviewer = join(root, 'a', 'direct-reviewer', 'session.v4.jsonl');
      await append(lead, linesOf(v4Lead).slice(0, 3).join(''));
      await append(reviewer, await fs.readFile(v4Reviewer));
      await following.until(
        'both sessions are stored',
        async () =>
          (await streamLength(temp.store, sessionStream('direct-lead' as SessionId))) === 2 &&
          (await streamLength(temp.store, sessionStream('direct-reviewer' as SessionId))) > 0,
      );
      await append(lead, linesOf(v4Lead).slice(3).join(''));
      const total = linesOf(v4Lead).length - 1;
      await following.until(
        'the lead is complete',
        async () => (await streamLength(temp.store, sessionStream('direct-lead' as SessionId))) === total,
      );
    } finally {
      await following.follower.stop();
    }
    expect(await storeContents(temp.store)).toEqual(
      await oneShotContents(root, join(temp.directory, 'reference.sqlite')),
    );
  });

  it('follows zstd logs frame by frame, a frame written in two parts once it is whole', async () => {
    const source = join(temp.directory, 'source.v4.jsonl');
    await generateSyntheticLog({ file: source, targetBytes: 40_000, formatVersion: 4, sessionId: 'zstd-follow' });
    const lines = linesOf(source);
    await initZstdEncoder();
    const frame = (from: number, to: number): Uint8Array =>
      encodeZstdFrame(Buffer.from(lines.slice(from, to).join('')));
    const file = join(root, 'zstd-follow', 'session.v4.jsonl.zstd');
    await append(file, frame(0, 1));
    const following = await follow(root, temp.store, options);
    try {
      const stream = sessionStream('zstd-follow' as SessionId);
      let written = 1;
      while (written < lines.length) {
        const next = Math.min(lines.length, written + 7);
        const bytes = frame(written, next);
        if (written % 2 === 1) {
          await append(file, bytes.subarray(0, 9));
          await new Promise((resolve) => setTimeout(resolve, 15));
          expect(await streamLength(temp.store, stream)).toBe(written - 1);
          await append(file, bytes.subarray(9));
        } else await append(file, bytes);
        written = next;
        await following.until(
          `${written - 1} events are stored`,
          async () => (await streamLength(temp.store, stream)) === written - 1,
        );
      }
      expect(following.batches.flatMap((batch) => batch.warnings)).toEqual([]);
    } finally {
      await following.follower.stop();
    }
    expect(await storeContents(temp.store)).toEqual(
      await oneShotContents(root, join(temp.directory, 'reference.sqlite')),
    );
  });

  it('follows a log the harness migrated to a higher generation: its header joins the old one, no event is imported twice', async () => {
    const lines = linesOf(v0Lead);
    const directory = join(root, 'v0-lead');
    await append(join(directory, 'session.jsonl'), lines.slice(0, 20).join(''));
    const following = await follow(root, temp.store, options);
    const stream = sessionStream('v0-lead' as SessionId);
    try {
      // The V0 -> V1 migration renames the version and keeps every event and seq.
      const header = { ...(JSON.parse(lines[0] as string) as Record<string, unknown>), version: 1 };
      await append(join(directory, 'session.v1.jsonl'), `${JSON.stringify(header)}\n${lines.slice(1, 20).join('')}`);
      await following.until(
        'the V1 header is stored',
        async () => (await streamLength(temp.store, sessionHeaderStream('v0-lead' as SessionId))) === 2,
      );
      expect(await streamLength(temp.store, stream)).toBe(19);
      await append(join(directory, 'session.v1.jsonl'), lines.slice(20).join(''));
      await following.until(
        'the V1 tail is stored',
        async () => (await streamLength(temp.store, stream)) === lines.length - 1,
      );
      expect(following.batches.flatMap((batch) => batch.warnings)).toEqual([]);
    } finally {
      await following.follower.stop();
    }
    const headers = await readStream(temp.store, sessionHeaderStream('v0-lead' as SessionId));
    expect(headers.map((event) => (event.data as { formatVersion: number }).formatVersion)).toEqual([0, 1]);
    const reference = await oneShotContents(root, join(temp.directory, 'reference.sqlite'));
    const followed = await storeContents(temp.store);
    expect(followed[stream]).toEqual(reference[stream]);
    expect((followed['sessionheader-v0-lead'] as unknown[][])[1]?.slice(1)).toEqual(
      (reference['sessionheader-v0-lead'] as unknown[][])[0]?.slice(1),
    );
  });

  it('takes a higher generation that renumbers the events, as a one-shot replay of the final files does, and keeps what it had imported', async () => {
    const directory = join(root, 'direct-lead');
    await append(
      join(directory, 'session.v3.jsonl'),
      linesOf(v4Lead)
        .map((line, index) => (index === 0 ? line.replace('"version":4', '"version":3') : line))
        .join(''),
    );
    const following = await follow(root, temp.store, options);
    const stream = sessionStream('direct-lead' as SessionId);
    try {
      const lower = await readStream(temp.store, stream);
      // The migration inserted an event at seq 0: every later seq moved by one.
      const [header, ...events] = linesOf(v4Lead);
      const inserted = `${JSON.stringify({ type: 'acme/note', seq: 0, time: 1, data: {}, ignorable: true })}\n`;
      const renumbered = events.map((line) =>
        line.replace(/"seq":(\d+)/, (_all, seq: string) => `"seq":${Number(seq) + 1}`),
      );
      await append(join(directory, 'session.v4.jsonl'), [header, inserted, ...renumbered.slice(0, 10)].join(''));
      await following.until(
        'the later generation is stored after the supersession record',
        async () => (await streamLength(temp.store, stream)) === lower.length + 1 + 11,
      );
      // It grows: only its new events are appended.
      await append(join(directory, 'session.v4.jsonl'), renumbered.slice(10).join(''));
      await following.until(
        'the rest of the later generation is stored',
        async () => (await streamLength(temp.store, stream)) === lower.length + 1 + events.length + 1,
      );
      expect(following.batches.flatMap((batch) => batch.warnings)).toEqual([]);
      const stored = await readStream(temp.store, stream);
      // Nothing imported before is gone: the lower generation's events, then the record.
      expect(stored.slice(0, lower.length)).toEqual(lower);
      expect(stored[lower.length]).toMatchObject({
        type: 'teamlog/import/superseded',
        data: { file: 'direct-lead/session.v3.jsonl', by: 'direct-lead/session.v4.jsonl', formatVersion: 4 },
      });
    } finally {
      await following.follower.stop();
    }
    const oneShot = new InMemoryEventStore();
    await importSessionLogs(root, oneShot);
    expect(await comparableViews(temp.store)).toEqual(await comparableViews(oneShot));
    // A restarted follower finds the record and appends nothing.
    const again = await follow(root, temp.store, options);
    await again.follower.stop();
    expect(again.follower.first).toMatchObject({ appended: 0, warnings: [] });
    expect(await comparableViews(temp.store)).toEqual(await comparableViews(oneShot));
  });

  it('still refuses a file of the same generation replaced by renumbered events: nothing is superseded', async () => {
    const directory = join(root, 'direct-lead');
    await append(join(directory, 'session.v4.jsonl'), linesOf(v4Lead).join(''));
    const following = await follow(root, temp.store, options);
    try {
      const stored = await storeContents(temp.store);
      const [header, ...events] = linesOf(v4Lead);
      const changed = events.map((line) =>
        line.replace(/"seq":(\d+)/, (_all, seq: string) => `"seq":${Number(seq) + 1}`),
      );
      const inserted = `${JSON.stringify({ type: 'acme/note', seq: 0, time: 1, data: {}, ignorable: true })}\n`;
      const file = join(directory, 'session.v4.jsonl');
      await fs.writeFile(`${file}.next`, [header, inserted, ...changed].join(''));
      await fs.rename(`${file}.next`, file);
      await following.until('a warning', () => following.batches.some((batch) => batch.warnings.length > 0));
      expect(following.batches.flatMap((batch) => batch.warnings)[0]).toMatch(
        /the store already holds a agent\/inbox\/spliced event at seq 0 of session direct-lead/,
      );
      expect(await storeContents(temp.store)).toEqual(stored);
    } finally {
      await following.follower.stop();
    }
  });

  it('warns when a file shrinks or is replaced by different content, writes nothing from it, and the other logs go on', async () => {
    const lead = join(root, 'direct-lead', 'session.v4.jsonl');
    const reviewer = join(root, 'direct-reviewer', 'session.v4.jsonl');
    const leadLines = linesOf(v4Lead);
    const reviewerLines = linesOf(v4Reviewer);
    const leadStream = sessionStream('direct-lead' as SessionId);
    const warnings = (): string[] => following.batches.flatMap((batch) => batch.warnings);
    await append(lead, leadLines.slice(0, 4).join(''));
    await append(reviewer, reviewerLines.slice(0, 2).join(''));
    const following = await follow(root, temp.store, options);
    try {
      // Grown once: read by its tail from then on.
      await append(lead, leadLines.slice(4, -1).join(''));
      await following.until(
        'the lead but its last line is stored',
        async () => (await streamLength(temp.store, leadStream)) === leadLines.length - 2,
      );
      // Shrunk in one step (written beside it, then renamed over it): a poll must not see it half-written.
      await fs.writeFile(`${lead}.tmp`, leadLines.slice(0, 3).join(''));
      await fs.rename(`${lead}.tmp`, lead);
      await following.until('the shrink warning', () => warnings().length === 1);
      expect(warnings()[0]).toBe(
        `${lead}: the file now holds 2 events, fewer than the ${leadLines.length - 2} already imported from it (it shrank or was rewritten); nothing more is imported from it until it holds them again`,
      );
      // Replaced by different content: the importer refuses it, naming the file and line.
      const other = leadLines
        .slice(0, -1)
        .map((line, index) => (index === 2 ? line.replace('"seq":1,', '"seq":1,"changed":true,') : line));
      await fs.writeFile(`${lead}.tmp`, other.join(''));
      await fs.rename(`${lead}.tmp`, lead);
      await following.until('the replacement warning', () => warnings().length === 2);
      expect(warnings()[1]).toMatch(
        /session\.v4\.jsonl:line 3: the store already holds a .* at seq 1 of session direct-lead/,
      );
      expect(await streamLength(temp.store, leadStream)).toBe(leadLines.length - 2);
      // The other log goes on.
      await append(reviewer, reviewerLines.slice(2).join(''));
      await following.until(
        'the reviewer is complete',
        async () =>
          (await streamLength(temp.store, sessionStream('direct-reviewer' as SessionId))) === reviewerLines.length - 1,
      );
      // Put back as it was, then grown: followed again from where it was, without another warning.
      await fs.writeFile(`${lead}.tmp`, leadLines.slice(0, -1).join(''));
      await fs.rename(`${lead}.tmp`, lead);
      await append(lead, leadLines[leadLines.length - 1] as string);
      await following.until(
        'the lead is complete',
        async () => (await streamLength(temp.store, leadStream)) === leadLines.length - 1,
      );
      expect(warnings()).toHaveLength(2);
    } finally {
      await following.follower.stop();
    }
    expect(await storeContents(temp.store)).toEqual(
      await oneShotContents(root, join(temp.directory, 'reference.sqlite')),
    );
  });
});

describe('a follower', () => {
  it('applies the recovery rule to what it follows: one warning at a seq gap, then a revocation when a turn/end shows the damage is in committed history', async () => {
    const file = join(root, 'direct-lead', 'session.v4.jsonl');
    const lines = linesOf(v4Lead);
    await append(file, lines.slice(0, 19).join('')); // through the first turn/end (seq 16) and seq 17
    const following = await follow(root, temp.store);
    const warnings = (): string[] => following.batches.flatMap((batch) => batch.warnings);
    try {
      await append(file, lines[19] as string); // seq 18: grown once, followed by its tail from here
      await following.until(
        'seq 18 is stored',
        async () => (await streamLength(temp.store, sessionStream('direct-lead' as SessionId))) === 19,
      );
      await append(file, lines[19] as string); // seq 18 again: a seq gap
      await following.until('the gap warning', () => warnings().length === 1);
      expect(warnings()[0]).toBe(
        `${file}:line 21: seq gap: expected seq 19, got 18; the lines after it are not imported (a read of the whole file keeps the same 19 events)`,
      );
      await append(file, lines.slice(20, 25).join('')); // no turn/end yet: dropped quietly
      await append(file, lines[25] as string); // the turn/end of seq 24
      await following.until('the damaged-history warning', () => warnings().length === 2);
      expect(warnings()[1]).toMatch(
        /session\.v4\.jsonl:line 21: seq gap: expected seq 19, got 18; a turn\/end follows at line 27, so the damage is inside committed history.*the session imported from it so far is revoked/,
      );
      // Nothing stored is deleted: the 19 events stay, and the revocation follows them.
      const stored = await readStream(temp.store, sessionStream('direct-lead' as SessionId));
      expect(stored.map((event) => event.type).slice(19)).toEqual(['teamlog/import/revoked']);
      expect(stored[19]?.data).toMatchObject({
        file: 'direct-lead/session.v4.jsonl',
        reason: 'damaged-history',
        line: 21,
      });
      expect((stored[19]?.data as { message: string } | undefined)?.message).toMatch(
        /^direct-lead\/session\.v4\.jsonl:line 21: seq gap/,
      );
      // A one-shot replay of the final file rejects it whole.
      expect((await importSessionLog(file, new InMemoryEventStore())).rejected?.reason).toBe('damaged-history');
    } finally {
      await following.follower.stop();
    }
  });

  it('follows a root that is one file', async () => {
    const file = join(root, 'lead.jsonl');
    const lines = linesOf(v4Lead);
    await append(file, lines.slice(0, 2).join(''));
    await append(join(root, 'other', 'session.v4.jsonl'), await fs.readFile(v4Reviewer));
    const following = await follow(file, temp.store);
    try {
      await append(file, lines.slice(2).join(''));
      await following.until(
        'the file is complete',
        async () => (await streamLength(temp.store, sessionStream('direct-lead' as SessionId))) === lines.length - 1,
      );
      expect(await streamLength(temp.store, sessionStream('direct-reviewer' as SessionId))).toBe(0);
    } finally {
      await following.follower.stop();
    }
  });

  it('finds the root again when it is removed and made anew', async () => {
    const following = await follow(root, temp.store, { pollMs: 25, poll: true });
    try {
      await fs.rm(root, { recursive: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await append(join(root, 'direct-lead', 'session.v4.jsonl'), await fs.readFile(v4Lead));
      await following.until(
        'the new log is stored',
        async () =>
          (await streamLength(temp.store, sessionStream('direct-lead' as SessionId))) === linesOf(v4Lead).length - 1,
      );
    } finally {
      await following.follower.stop();
    }
  });

  it('polls instead when fs.watch fails, and says so once', async () => {
    const failing = (() => {
      throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
    }) as unknown as FollowOptions['watchDirectory'];
    const file = join(root, 'direct-lead', 'session.v4.jsonl');
    const lines = linesOf(v4Lead);
    await append(file, lines.slice(0, 2).join(''));
    const following = await follow(root, temp.store, { watchDirectory: failing, pollMs: 25 });
    try {
      expect(following.follower.mode()).toEqual({
        kind: 'poll',
        intervalMs: 25,
        reason: 'fs.watch failed (ENOSPC: System limit for number of file watchers reached)',
      });
      expect(following.follower.first.warnings).toEqual([
        'fs.watch failed (ENOSPC: System limit for number of file watchers reached); polling every 25 ms instead',
      ]);
      await append(file, lines.slice(2).join(''));
      await following.until(
        'the file is complete',
        async () => (await streamLength(temp.store, sessionStream('direct-lead' as SessionId))) === lines.length - 1,
      );
    } finally {
      await following.follower.stop();
    }
  });

  it('finishes the batch in progress when stopped, then looks no more', async () => {
    const file = join(root, 'direct-lead', 'session.v4.jsonl');
    const lines = linesOf(v4Lead);
    await append(file, lines.slice(0, 2).join(''));
    let release: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const inBatch = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    let batches = 0;
    const following = await follow(root, temp.store, {
      runBatch: async (work) => {
        batches += 1;
        if (batches === 2) {
          entered();
          await gate;
        }
        return work();
      },
    });
    await append(file, lines.slice(2, 4).join(''));
    await inBatch;
    let stopped = false;
    const stopping = following.follower.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await streamLength(temp.store, sessionStream('direct-lead' as SessionId))).toBe(3);
    await append(file, lines.slice(4).join(''));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await streamLength(temp.store, sessionStream('direct-lead' as SessionId))).toBe(3);
    await expect(following.follower.done).resolves.toBeUndefined();
  });
});
