import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryEventStore } from '@teamlog/store';
import type { LogChange } from '../src/followed-log';
import { FollowedTree } from '../src/followed-tree';
import { setAsideStream } from '../src/file-set-aside';
import { fixturesRoot, linesOf, readStream } from './follow-support';

/*
 * A file refused as over a reader's limit, or whose refusal cost more than the follower's bound,
 * is set aside: one warning, one record in the store, and no follower (a restarted one neither)
 * reads it again until it changes.
 */

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamlog-set-aside-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const v4Lead = join(fixturesRoot, 'synthetic', 'v4-direct', 'direct-lead', 'session.v4.jsonl');
const deep = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** A follower's first look at the root, as a (re)started follower makes it. */
const firstLook = async (
  store: InMemoryEventStore,
  context: { readonly now?: () => number; readonly setAsideMs?: number } = {},
): Promise<{ tree: FollowedTree; changes: LogChange[] }> => {
  const tree = new FollowedTree(
    { store, rootDirectory: root, importOptions: { maxJsonDepth: 16 }, ...context },
    undefined,
  );
  const changes: LogChange[] = [];
  await tree.lookAt(root, changes);
  return { tree, changes };
};

const warningsOf = (changes: readonly LogChange[]): string[] =>
  changes.flatMap((change) => (change.warning === undefined ? [] : [change.warning]));

describe('a follower sets a file aside', () => {
  it("sets aside a file over a reader's limit: one warning, and a restarted follower does not read it again until it changes", async () => {
    const lines = linesOf(v4Lead);
    const file = join(root, 'lead', 'session.v4.jsonl');
    await fs.mkdir(join(root, 'lead'));
    const line = JSON.parse(lines[1] as string) as Record<string, unknown>;
    await fs.writeFile(file, `${lines[0]}${JSON.stringify({ ...line, data: JSON.parse(deep(40)) })}\n`);
    const store = new InMemoryEventStore();

    const first = await firstLook(store);
    expect(warningsOf(first.changes)).toEqual([
      expect.stringMatching(/nests deeper than 16 levels.*; set aside: it is not read again until it changes$/),
    ]);
    expect((await readStream(store, setAsideStream('lead/session.v4.jsonl'))).map((event) => event.data)).toEqual([
      expect.objectContaining({ file: 'lead/session.v4.jsonl', reason: 'over-limit' }),
    ]);

    const restarted = await firstLook(store);
    expect(restarted.changes).toEqual([]);

    await fs.appendFile(file, lines[2] as string);
    const changed: LogChange[] = [];
    await restarted.tree.pollAll(changed);
    expect(warningsOf(changed)).toEqual([expect.stringMatching(/nests deeper than 16 levels/)]);
    expect(await readStream(store, setAsideStream('lead/session.v4.jsonl'))).toHaveLength(2);
  });

  it('sets aside a file whose refusal took longer than setAsideMs, and not one refused quickly', async () => {
    const damaged = join(fixturesRoot, 'crafted', 'gap-then-turn-end', 'session.jsonl');
    await fs.mkdir(join(root, 'slow'));
    await fs.copyFile(damaged, join(root, 'slow', 'session.jsonl'));
    const quick = new InMemoryEventStore();
    expect(warningsOf((await firstLook(quick, { setAsideMs: 10_000 })).changes)).toEqual([
      expect.stringMatching(/damage is inside committed history and the whole file is rejected$/),
    ]);
    expect(warningsOf((await firstLook(quick, { setAsideMs: 10_000 })).changes)).toHaveLength(1);

    let clock = 0;
    const slow = new InMemoryEventStore();
    const now = (): number => (clock += 20_000);
    expect(warningsOf((await firstLook(slow, { now, setAsideMs: 10_000 })).changes)).toEqual([
      expect.stringMatching(/; set aside: it is not read again until it changes$/),
    ]);
    expect((await firstLook(slow, { now, setAsideMs: 10_000 })).changes).toEqual([]);
  });
});
