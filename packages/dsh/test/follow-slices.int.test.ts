import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { InMemoryEventStore, sessionHeaderStream, sessionStream } from '@teamlog/store';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import type { LogChange } from '../src/followed-log';
import { FollowedTree } from '../src/followed-tree';
import { follow, linesOf, stopFollowers, streamLength } from './follow-support';

/*
 * A follower reads a growing log's tail in slices: one look stops at the end of its slice (after
 * a whole chunk) and says there is more, so the other logs get their turn before the rest of it.
 * The clock is the test's: every reading of it is a second later, so each slice is one chunk.
 */

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamlog-slices-'));
});
afterEach(async () => {
  await stopFollowers();
  rmSync(root, { recursive: true, force: true });
});

const logOf = async (name: string, targetBytes: number): Promise<string[]> => {
  const file = join(root, `${name}.source`);
  await generateSyntheticLog({ file, targetBytes, formatVersion: 4, sessionId: name });
  const lines = linesOf(file);
  await fs.rm(file);
  return lines;
};

describe('a follower reads a growing log in slices', () => {
  it('gives a small log its turn before the rest of a large growth, and reads all of it by later looks', async () => {
    const big = await logOf('big-session', 3 * 1024 * 1024);
    const small = await logOf('small-session', 4000);
    const bigFile = join(root, 'big', 'session.v4.jsonl');
    const smallFile = join(root, 'small', 'session.v4.jsonl');
    await fs.mkdir(join(root, 'big'));
    await fs.mkdir(join(root, 'small'));
    await fs.writeFile(bigFile, big.slice(0, 3).join(''));
    await fs.writeFile(smallFile, small.slice(0, 3).join(''));
    let clock = 0;
    const store = new InMemoryEventStore();
    const tree = new FollowedTree(
      { store, rootDirectory: root, importOptions: {}, sliceMs: 1, now: () => (clock += 1000) },
      undefined,
    );
    const changes: LogChange[] = [];
    await tree.lookAt(root, changes);
    // Grown once: imported whole, after which each log is read by its tail.
    await fs.appendFile(bigFile, big[3] as string);
    await fs.appendFile(smallFile, small[3] as string);
    await tree.pollAll(changes);

    await fs.appendFile(bigFile, big.slice(4).join(''));
    await fs.appendFile(smallFile, small.slice(4).join(''));
    const look: LogChange[] = [];
    await tree.pollAll(look);
    const bigStream = sessionStream('big-session' as SessionId);
    const smallStream = sessionStream('small-session' as SessionId);
    expect(await streamLength(store, smallStream)).toBe(small.length - 1);
    const afterOneSlice = await streamLength(store, bigStream);
    expect(afterOneSlice).toBeLessThan(big.length - 1);
    expect(look.find((change) => change.file === bigFile)).toMatchObject({ more: true });

    let looks = 1;
    for (let more = true; more; looks += 1) {
      const next: LogChange[] = [];
      await tree.pollAll(next);
      more = next.some((change) => change.more === true);
    }
    expect(looks).toBeGreaterThan(2);
    expect(await streamLength(store, bigStream)).toBe(big.length - 1);
  }, 120_000);

  it('a follower reads the rest of a sliced growth by the batches it schedules itself, without another change of the file', async () => {
    const big = await logOf('big-session', 3 * 1024 * 1024);
    const file = join(root, 'big', 'session.v4.jsonl');
    await fs.mkdir(join(root, 'big'));
    await fs.writeFile(file, big.slice(0, 3).join(''));
    const store = new InMemoryEventStore();
    // No rescan, no polling: only the follower's own scheduling can bring the rest in.
    const following = await follow(root, store, { sliceMs: 0, rescanMs: 0 });
    await fs.appendFile(file, big[3] as string);
    const bigStream = sessionStream('big-session' as SessionId);
    await following.until(
      'the first growth is stored',
      async () => (await streamLength(store, bigStream)) === 3,
      60_000,
    );
    await fs.appendFile(file, big.slice(4).join(''));
    await following.until(
      'the whole growth is stored',
      async () => (await streamLength(store, bigStream)) === big.length - 1,
      120_000,
    );
    expect(following.batches.length).toBeGreaterThan(2);
  }, 200_000);

  it('imports a small log while the first whole import of a big one is still under way, and commits the big one once', async () => {
    const big = await logOf('big-session', 3 * 1024 * 1024);
    const small = await logOf('small-session', 4000);
    await fs.mkdir(join(root, 'a-big'));
    await fs.mkdir(join(root, 'b-small'));
    const bigFile = join(root, 'a-big', 'session.v4.jsonl');
    await fs.writeFile(bigFile, big.join(''));
    await fs.writeFile(join(root, 'b-small', 'session.v4.jsonl'), small.join(''));
    let clock = 0;
    const store = new InMemoryEventStore();
    const tree = new FollowedTree(
      { store, rootDirectory: root, importOptions: {}, sliceMs: 1, now: () => (clock += 1000) },
      undefined,
    );
    const bigStream = sessionStream('big-session' as SessionId);
    const first: LogChange[] = [];
    await tree.lookAt(root, first);
    // The big log is named first in the walk, yet the small one is in the store before any of it.
    expect(await streamLength(store, sessionStream('small-session' as SessionId))).toBe(small.length - 1);
    expect(await streamLength(store, bigStream)).toBe(0);
    expect(first.find((change) => change.file === bigFile)).toMatchObject({ more: true, appended: 0 });

    let looks = 1;
    let seenPartial = false;
    for (let more = true; more; looks += 1) {
      const next: LogChange[] = [];
      await tree.pollAll(next);
      more = next.some((change) => change.more === true);
      const stored = await streamLength(store, bigStream);
      if (stored > 0 && stored < big.length - 1) seenPartial = true;
    }
    expect(looks).toBeGreaterThan(2);
    // One unit: no look saw a part of the file stored.
    expect(seenPartial).toBe(false);
    expect(await streamLength(store, bigStream)).toBe(big.length - 1);
  }, 120_000);

  it('writes nothing from a first import under way when the follower stops', async () => {
    const big = await logOf('big-session', 3 * 1024 * 1024);
    await fs.mkdir(join(root, 'big'));
    await fs.writeFile(join(root, 'big', 'session.v4.jsonl'), big.join(''));
    let clock = 0;
    const store = new InMemoryEventStore();
    const tree = new FollowedTree(
      { store, rootDirectory: root, importOptions: {}, sliceMs: 1, now: () => (clock += 1000) },
      undefined,
    );
    const first: LogChange[] = [];
    await tree.lookAt(root, first);
    expect(first).toEqual([expect.objectContaining({ more: true })]);
    await tree.dispose();
    expect(await streamLength(store, sessionStream('big-session' as SessionId))).toBe(0);
    const headers = await store.streamRevision(sessionHeaderStream('big-session' as SessionId));
    expect(headers).toBeUndefined();
  }, 120_000);
});
