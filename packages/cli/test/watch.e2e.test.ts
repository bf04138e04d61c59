import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { TeamlogViews, teamlogProjection } from '@teamlog/projections';
import { type GlobalPosition, formatPosition } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import {
  type HarnessOperation,
  interleaved,
  linesOf,
  migratedToV1,
  rawLineByLine,
  zstdInFrames,
} from './harness-script';
import { repoRoot, temporaryDirectory } from './run-teamlog';
import { type Finished, type Running, runTeamlogAsync, startProcess, startTeamlog } from './teamlog-process';

const fixture = (path: string): string => join(repoRoot, 'fixtures', path);
const writerChild = join(__dirname, 'harness-writer-child.js');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const normalised = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** The session events of a SQLite store file, read straight from the file: [stream, revision, id, type, data, metadata]. */
const sessionRows = (file: string): unknown[][] => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        "SELECT stream_name, revision, event_id, type, data, metadata FROM events WHERE stream_name LIKE 'session-%' ORDER BY stream_name, revision",
      )
      .raw()
      .all() as unknown[][];
  } finally {
    db.close();
  }
};

const sessionEventCount = (file: string): number => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return Number(
      (
        db.prepare("SELECT COUNT(*) AS count FROM events WHERE stream_name LIKE 'session-%'").get() as {
          count: number | bigint;
        }
      ).count,
    );
  } finally {
    db.close();
  }
};

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
};

/** The harness: three teams and two lone sessions written at once, raw and zstd, torn writes, a migration. */
const harnessScript = async (root: string, scratch: string): Promise<HarnessOperation[]> => {
  const mailbox = (name: string): string[] => linesOf(fixture(`synthetic/v0-mailbox/${name}/session.jsonl`));
  const direct = (name: string): string[] => linesOf(fixture(`synthetic/v4-direct/${name}/session.v4.jsonl`));
  const real = 'dsh-logs/index-1394225561/snapshots/session/team-direct-inbox';
  const synthetic = async (formatVersion: 0 | 4, name: string): Promise<string[]> => {
    const file = join(scratch, name);
    await generateSyntheticLog({ file, targetBytes: 12_000, formatVersion, sessionId: `synthetic-${name}` });
    return linesOf(file);
  };
  return interleaved(
    [
      migratedToV1(join(root, 'v0-mailbox', 'v0-lead'), mailbox('v0-lead'), 40, 4),
      rawLineByLine(join(root, 'v0-mailbox', 'v0-reviewer', 'session.jsonl'), mailbox('v0-reviewer'), 5),
      rawLineByLine(join(root, 'v0-mailbox', 'v0-writer', 'session.jsonl'), mailbox('v0-writer'), 3),
      await zstdInFrames(join(root, 'v4-direct', 'direct-lead', 'session.v4.jsonl.zstd'), direct('direct-lead')),
      await zstdInFrames(
        join(root, 'v4-direct', 'direct-reviewer', 'session.v4.jsonl.zstd'),
        direct('direct-reviewer'),
      ),
      rawLineByLine(join(root, real, 'session.v4.jsonl'), linesOf(fixture(`${real}/session.v4.jsonl`)), 6),
      rawLineByLine(join(root, real, 'session.1.v4.jsonl'), linesOf(fixture(`${real}/session.1.v4.jsonl`)), 6),
      rawLineByLine(join(root, 'synthetic', 'packed', 'session.jsonl'), await synthetic(0, 'packed'), 3),
      await zstdInFrames(join(root, 'synthetic', 'framed', 'session.v4.jsonl.zstd'), await synthetic(4, 'framed')),
    ],
    5,
  );
};

/** What a reader printed while the watcher wrote, to be checked against the views the store passed through. */
interface ReaderOutput {
  readonly kind: 'roster' | 'audit' | 'inbox';
  readonly body: unknown;
}

const readerCommands: ReadonlyArray<readonly [ReaderOutput['kind'], readonly string[]]> = [
  ['roster', ['roster', '--json']],
  ['audit', ['audit', '--json']],
  ['inbox', ['inbox', 'v0-reviewer', '--json']],
];

/** What of a reader's output is compared with the folds: the audit's findings (its explanations and hash chains are not views). */
const comparedPart = (kind: ReaderOutput['kind'], body: { audit?: unknown }): unknown =>
  kind === 'audit' ? { audit: body.audit } : body;

/** The dashboard's teams without `lastActive` (the page's choice of a first team, not a view of the fold). */
const withoutLastActive = (teams: unknown): unknown =>
  (teams as Array<Record<string, unknown>>).map(({ lastActive: _lastActive, ...team }) => team);

/** A team as `/api/teams` lists it: its legacy mailbox and task board counted, not listed. */
const asListed = (teams: unknown): unknown =>
  (teams as Array<Record<string, unknown>>).map(({ legacyMessages, tasks, ...team }) => ({
    ...team,
    legacyMessageCount: (legacyMessages as unknown[]).length,
    taskCount: (tasks as unknown[]).length,
  }));

/** The three views as the reader commands print them, from a fold of the store. */
const printedViews = (views: TeamlogViews): Record<ReaderOutput['kind'], unknown> => ({
  roster: normalised({
    teams: views.teams().map((team) => ({ teamId: team.teamId, lead: team.lead, members: team.members })),
  }),
  audit: normalised({ audit: views.audit() }),
  inbox: normalised({
    sessionId: 'v0-reviewer',
    inbox: views.inbox({ sessionId: 'v0-reviewer' as never, peerOnly: false }),
  }),
});

describe('teamlog watch following a harness that writes', () => {
  const directory = temporaryDirectory();
  const root = join(directory.path, 'sessions');
  const followed = join(directory.path, 'followed.db');
  const reference = join(directory.path, 'reference.db');
  afterAll(() => directory.cleanup());

  it('ends with the views of a one-shot replay of the final files, nothing imported twice, while other readers read consistent views', async () => {
    await fs.mkdir(join(root, 'real', 'packed-chunks'), { recursive: true });
    // Already there when the watch starts: imported by its first batch.
    await fs.copyFile(
      fixture('dsh-logs/mirror-toninfo/examples/acp-agent/tests/snapshots/packed-chunks/session.jsonl'),
      join(root, 'real', 'packed-chunks', 'session.jsonl'),
    );
    const script = join(directory.path, 'script.json');
    await fs.writeFile(script, JSON.stringify(await harnessScript(root, directory.path)));

    const watcher = startTeamlog(['watch', root, '--store', followed, '--json']);
    let second: Running | undefined;
    try {
      expect(JSON.parse(await watcher.line())).toMatchObject({ batch: 0, files: 1, warnings: [] });
      second = startTeamlog(['serve', '--store', followed, '--port', '0']);
      const url = await second.line();

      // Readers at the same time: the CLI view commands, and a second dashboard on the same file.
      const printed: ReaderOutput[] = [];
      const served: Array<{ readonly checkpoint: string | null; readonly teams: unknown }> = [];
      const readRound = async (): Promise<void> => {
        await Promise.all(
          readerCommands.map(async ([kind, args]) => {
            const run: Finished = await runTeamlogAsync([...args, '--store', followed]);
            if (run.code === 0) printed.push({ kind, body: comparedPart(kind, JSON.parse(run.stdout)) });
            else expect(run.stderr).toMatch(/no session "v0-reviewer" in the store/); // before the reviewer's log appeared
          }),
        );
        const answer = (await (await fetch(`${url}api/teams`)).json()) as { checkpoint: string | null; teams: unknown };
        served.push({ checkpoint: answer.checkpoint, teams: normalised(withoutLastActive(answer.teams)) });
      };
      // One round before the harness writes, so the readers see at least two moments whatever the load.
      await readRound();
      const writer = startProcess(process.execPath, [writerChild, script]);
      let writing = true;
      const readers = (async () => {
        for (let round = 0; writing || round < 2; round += 1) await readRound();
      })();
      expect(await writer.exited).toMatchObject({ code: 0 });
      writing = false;
      await readers;

      // The reference: a clean one-shot replay of the final files.
      const oneShot = await runTeamlogAsync(['replay', root, '--store', reference, '--json']);
      expect(oneShot.code).toBe(0);
      const wanted = sessionEventCount(reference);
      await until('the watcher caught up', () => sessionEventCount(followed) === wanted);
      watcher.child.kill('SIGINT');
      const watched = await watcher.exited;
      expect({ code: watched.code, stderr: watched.stderr }).toEqual({
        code: 0,
        stderr: expect.stringMatching(/stopped following\n$/),
      });
      expect(watched.stderr).not.toMatch(/warning/);

      // Nothing imported twice, nothing missed: the batches add up to the events, and the files, read again, add nothing.
      const batches = watched.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { batch: number; events: number; warnings: string[] });
      // The harness wrote after batch 0, so later batches imported it; how many depends on the machine's load (a starved watcher sees many writes at once).
      expect(batches.length).toBeGreaterThan(1);
      expect(batches.reduce((sum, batch) => sum + batch.events, 0)).toBe(wanted);
      expect(sessionRows(followed)).toEqual(sessionRows(reference));
      const again = await runTeamlogAsync(['replay', root, '--store', followed, '--json']);
      expect(again.code).toBe(0);
      const [followedDocument, referenceDocument] = [JSON.parse(again.stdout), JSON.parse(oneShot.stdout)];
      expect(followedDocument.totals.appended).toBe(0);
      expect(followedDocument.totals).toMatchObject({
        rejected: referenceDocument.totals.rejected,
        files: referenceDocument.totals.files,
      });
      for (const view of ['teams', 'inbox', 'audit'] as const)
        expect(followedDocument[view]).toEqual(referenceDocument[view]);
      expect(referenceDocument.teams.map((team: { teamId: string }) => team.teamId).sort()).toEqual(
        expect.arrayContaining(['direct-lead', 'v0-lead']),
      );

      // Every view a reader printed, or the second dashboard served, is the views of some prefix of the store's $all.
      await until(
        'the second dashboard caught up',
        async () =>
          ((await (await fetch(`${url}api/teams`)).json()) as { checkpoint: string }).checkpoint ===
          formatPosition(await lastPosition(followed)),
      );
      const finalServed = normalised(
        withoutLastActive(((await (await fetch(`${url}api/teams`)).json()) as { teams: unknown }).teams),
      );
      const { prefixes, teamsAt } = await foldPrefixes(followed);
      for (const output of printed)
        expect({
          kind: output.kind,
          seen: prefixes[output.kind].some((view) => isDeepStrictEqual(view, output.body)),
        }).toEqual({ kind: output.kind, seen: true });
      for (const answer of served) expect(answer.teams).toEqual(teamsAt.get(answer.checkpoint));
      expect(finalServed).toEqual(normalised(asListed(referenceDocument.teams)));
      expect(printed.filter((output) => output.kind === 'roster').length).toBeGreaterThan(1);
      // The readers read before and while the store moved: more than one moment of it (how many
      // fall inside the writes depends on the machine's load, so it is not counted).
      await readRound();
      expect(new Set(served.map((answer) => answer.checkpoint)).size).toBeGreaterThan(1);
    } finally {
      watcher.child.kill('SIGINT');
      second?.child.kill('SIGINT');
      await Promise.all([watcher.exited, second?.exited]);
    }
  }, 180_000);
});

const lastPosition = async (file: string) => {
  const store = SqliteEventStore.open(file);
  try {
    let last: GlobalPosition | undefined;
    for await (const event of store.readAll()) last = event.position;
    if (last === undefined) throw new Error('empty store');
    return last;
  } finally {
    await store.close();
  }
};

/** The views after every prefix of the store's $all, as the readers print them, and the teams at each position. */
const foldPrefixes = async (file: string) => {
  const store = SqliteEventStore.open(file);
  const prefixes: Record<ReaderOutput['kind'], unknown[]> = { roster: [], audit: [], inbox: [] };
  const teamsAt = new Map<string | null, unknown>([[null, []]]);
  try {
    let state = teamlogProjection.initial();
    const add = (views: TeamlogViews): void => {
      const printed = printedViews(views);
      for (const kind of Object.keys(prefixes) as Array<ReaderOutput['kind']>) {
        const seen = prefixes[kind];
        if (!seen.some((view) => isDeepStrictEqual(view, printed[kind]))) seen.push(printed[kind]);
      }
    };
    add(new TeamlogViews(state));
    for await (const event of store.readAll()) {
      state = teamlogProjection.evolve(state, event);
      const views = new TeamlogViews(state);
      add(views);
      teamsAt.set(formatPosition(event.position), normalised(asListed(views.teams())));
    }
    return { prefixes, teamsAt };
  } finally {
    await store.close();
  }
};
