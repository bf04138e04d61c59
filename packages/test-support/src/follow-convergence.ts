import { mkdtempSync, promises as fs, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { FollowedTree, type LogChange, importSessionLogs } from '@teamlog/dsh';
import { TeamlogProjections } from '@teamlog/projections';
import { type EventStore, InMemoryEventStore } from '@teamlog/store';

/*
 * The follower's convergence, checked without timers: a harness's final files are cut into pieces
 * at random byte offsets (inside lines, headers and zstd frames too), the pieces of all files are
 * laid into a folder in a random interleaving (each file's pieces in order), and the follower
 * looks at the folder after a random share of the pieces and always at the end. Its views must
 * then equal the views of a one-shot import of the final files.
 */

/** One harness folder as it ends: file path (relative, "/"-separated) -> bytes. */
export type FinalFiles = ReadonlyMap<string, Buffer>;

/** A small deterministic PRNG (mulberry32): one seed, one order. */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** Every file under `directory`, read into memory. */
export const finalFilesOf = (directory: string): FinalFiles => {
  const files = new Map<string, Buffer>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(directory, path).split('\\').join('/'), readFileSync(path));
    }
  };
  walk(directory);
  return files;
};

interface Piece {
  readonly file: string;
  readonly bytes: Buffer;
}

/** Cut each file into 1..maxPieces pieces at random offsets, then interleave all pieces at random, each file's in order. */
export const piecesOf = (
  files: FinalFiles,
  random: () => number,
  maxPieces: number,
  inOrder: ReadonlyArray<readonly [string, string]> = [],
): Piece[] => {
  const cut = [...files].map(([file, bytes]) => {
    const count = 1 + Math.floor(random() * Math.min(maxPieces, Math.max(1, bytes.length)));
    const cuts = [
      ...new Set(Array.from({ length: count - 1 }, () => 1 + Math.floor(random() * Math.max(1, bytes.length - 1)))),
    ].sort((a, b) => a - b);
    const bounds = [0, ...cuts, bytes.length];
    return bounds.slice(1).map((end, index) => ({ file, bytes: bytes.subarray(bounds[index] as number, end) }));
  });
  // A pair in order: every piece of the first file is laid before any of the second (one queue).
  const queues = cut.filter((queue) => !inOrder.some(([, second]) => queue[0]?.file === second));
  for (const [first, second] of inOrder) {
    const into = queues.find((queue) => queue[0]?.file === first);
    const rest = cut.find((queue) => queue[0]?.file === second);
    if (into !== undefined && rest !== undefined) into.push(...rest);
  }
  const order: Piece[] = [];
  while (queues.some((queue) => queue.length > 0)) {
    const open = queues.filter((queue) => queue.length > 0);
    order.push((open[Math.floor(random() * open.length)] as Piece[]).shift() as Piece);
  }
  return order;
};

/** The views a comparison looks at: teams, inboxes, audit (without revocations, listed apart) and every session's facts. */
export const comparableViews = async (store: EventStore): Promise<unknown> => {
  const projections = await TeamlogProjections.inMemory(store);
  await projections.catchUp();
  const views = projections.views();
  const replay = views.replay();
  return {
    teams: replay.teams,
    inbox: replay.inbox,
    audit: replay.audit.filter((finding) => finding.code !== 'revoked-session'),
    sessions: [...views.state.sessions.values()]
      .map(({ id, eventCount, header, lifecycle, problems, inheritedEndSeedSeq }) => ({
        id,
        eventCount,
        header,
        lifecycle,
        problems,
        inheritedEndSeedSeq,
      }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
};

export interface ConvergenceRun {
  readonly followed: unknown;
  readonly oneShot: unknown;
  readonly pieces: number;
  readonly looks: number;
  readonly warnings: readonly string[];
}

/** Lay `files` into a fresh folder piece by piece as `seed` orders them, following it; and import the final files one-shot. */
export const runConvergence = async (
  files: FinalFiles,
  seed: number,
  options: {
    readonly maxPieces?: number;
    /** Pairs of files whose pieces are laid one file after the other (a harness migrates a log once it is written). */
    readonly inOrder?: ReadonlyArray<readonly [string, string]>;
  } = {},
): Promise<ConvergenceRun> => {
  const random = seededRandom(seed);
  const root = mkdtempSync(join(tmpdir(), 'teamlog-convergence-'));
  try {
    const followedStore = new InMemoryEventStore();
    const tree = new FollowedTree({ store: followedStore, rootDirectory: root, importOptions: {} }, undefined);
    const changes: LogChange[] = [];
    await tree.lookAt(root, changes);
    const pieces = piecesOf(files, random, options.maxPieces ?? 8, options.inOrder);
    let looks = 0;
    for (const piece of pieces) {
      const path = join(root, piece.file);
      await fs.mkdir(dirname(path), { recursive: true });
      await fs.appendFile(path, piece.bytes);
      if (random() < 0.6) {
        await tree.pollAll(changes);
        looks += 1;
      }
    }
    // The last looks: like a follower's rescan once nothing is written any more, and the batches it
    // schedules at once while a look ends its slice with more to read.
    for (let more = true; more; looks += 1) {
      const last: LogChange[] = [];
      await tree.pollAll(last);
      changes.push(...last);
      more = last.some((change) => change.more === true);
    }
    const oneShotStore = new InMemoryEventStore();
    await importSessionLogs(root, oneShotStore);
    return {
      followed: await comparableViews(followedStore),
      oneShot: await comparableViews(oneShotStore),
      pieces: pieces.length,
      looks,
      warnings: changes.flatMap((change) => (change.warning === undefined ? [] : [change.warning])),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

export type Damage = 'repeat-line' | 'garbage-line' | 'cut-line';

/**
 * `files` with one log damaged at a random line after its header: a line repeated (a seq gap), a
 * line of garbage (unparsable), or a line cut short. Whether a `turn/end` follows decides whether
 * the file is recovered or rejected whole (docs/rules.md#recovery-damaged-tail).
 */
export const damaged = (files: FinalFiles, random: () => number, damage: Damage): FinalFiles => {
  const logs = [...files.keys()].filter((file) => /\.jsonl$/.test(file));
  if (logs.length === 0) return files; // zstd only: its frames are damaged by the cuts of the pieces alone
  const target = logs[Math.floor(random() * logs.length)] as string;
  const lines = (files.get(target) as Buffer).toString('utf8').split(/(?<=\n)/);
  const at = 1 + Math.floor(random() * Math.max(1, lines.length - 1));
  const line = lines[at] ?? lines[lines.length - 1] ?? '';
  const replacement =
    damage === 'repeat-line'
      ? [line, line]
      : damage === 'garbage-line'
        ? ['{"not json\n', line]
        : [`${line.slice(0, Math.max(1, line.length >> 1))}\n`];
  const changed = [...lines.slice(0, at), ...replacement, ...lines.slice(at + 1)].join('');
  return new Map([...files, [target, Buffer.from(changed)]]);
};

const fixtures = join(resolve(__dirname, '..', '..', '..'), 'fixtures');

/** The fixture harness folders the convergence runs lay in piece by piece. */
export const convergenceCases = (): ReadonlyArray<readonly [string, FinalFiles]> => [
  ['team-direct-inbox', finalFilesOf(join(fixtures, 'dsh-logs/index-1394225561/snapshots/session/team-direct-inbox'))],
  ['v4-direct', finalFilesOf(join(fixtures, 'synthetic/v4-direct'))],
  ['v0-mailbox', finalFilesOf(join(fixtures, 'synthetic/v0-mailbox'))],
  ['gap-then-turn-end', finalFilesOf(join(fixtures, 'crafted/gap-then-turn-end'))],
  ['zstd-cli', finalFilesOf(join(fixtures, 'crafted/zstd-cli'))],
  ['torn-tail', finalFilesOf(join(fixtures, 'crafted/torn-tail'))],
  [
    'v4-direct, the Lead migrated V3→V4 with renumbered seqs',
    withRenumberedGeneration(finalFilesOf(join(fixtures, 'synthetic/v4-direct')), 'direct-lead/session.v4.jsonl'),
  ],
];

export interface ConvergenceReport {
  /** Orders tried: one per (case, damage, seed). */
  readonly orders: number;
  readonly pieces: number;
  /** Orders whose followed views differ from the one-shot replay's, described. */
  readonly divergent: readonly string[];
}

/**
 * `orders` interleavings, spread over the fixture cases, each intact or with one log damaged at
 * a random place, seeds counted from `seed`.
 */
export const runConvergenceOrders = async (orders: number, seed: number): Promise<ConvergenceReport> => {
  const cases = convergenceCases();
  const damages: ReadonlyArray<Damage | undefined> = [undefined, 'repeat-line', 'garbage-line', 'cut-line'];
  const divergent: string[] = [];
  let pieces = 0;
  for (let order = 0; order < orders; order += 1) {
    const [name, files] = cases[order % cases.length] as readonly [string, FinalFiles];
    const damage = damages[Math.floor(order / cases.length) % damages.length];
    const orderSeed = seed + order;
    const laid = damage === undefined ? files : damaged(files, seededRandom(orderSeed * 7919), damage);
    const run = await runConvergence(laid, orderSeed);
    pieces += run.pieces;
    if (!isDeepStrictEqual(run.followed, run.oneShot))
      divergent.push(`${name}${damage === undefined ? '' : `, ${damage}`}, seed ${orderSeed}`);
  }
  return { orders, pieces, divergent };
};

/**
 * `files` with the V4 log at `path` (`<dir>/session.v4.jsonl`) as a harness migrates it with
 * renumbered seqs: the same events as a V3 file beside it (`session.v3.jsonl`), and the V4 file
 * with one event inserted at seq 0, so every later seq moved by one (docs/rules.md#import-superseded).
 */
export const withRenumberedGeneration = (files: FinalFiles, path: string): FinalFiles => {
  const lines = (files.get(path) as Buffer).toString('utf8').split(/(?<=\n)/);
  const [header = '', ...events] = lines;
  const lower = [header.replace('"version":4', '"version":3'), ...events].join('');
  const inserted = `${JSON.stringify({ type: 'acme/note', seq: 0, time: 1, data: {}, ignorable: true })}\n`;
  const renumbered = events.map((line) =>
    line.replace(/"seq":(\d+)/, (_all, seq: string) => `"seq":${Number(seq) + 1}`),
  );
  const lowerPath = path.replace(/session\.v4\.jsonl$/, 'session.v3.jsonl');
  // The lower generation first in the folder's order: the harness wrote it before it migrated the log.
  return new Map([
    [lowerPath, Buffer.from(lower)],
    ...[...files].filter(([file]) => file !== path),
    [path, Buffer.from([header, inserted, ...renumbered].join(''))],
  ]);
};
