import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import {
  type Damage,
  type FinalFiles,
  damaged,
  finalFilesOf,
  runConvergence,
  seededRandom,
  withRenumberedGeneration,
} from '@teamlog/test-support/follow-convergence';

const fixtures = join(__dirname, '..', '..', 'fixtures');

/** Fixture harness folders, each laid into a watched folder piece by piece. */
const cases: ReadonlyArray<readonly [string, FinalFiles]> = [
  [
    'team-direct-inbox (a normalised Lead log and a member log)',
    finalFilesOf(join(fixtures, 'dsh-logs/index-1394225561/snapshots/session/team-direct-inbox')),
  ],
  ['v4-direct (a team in the direct era)', finalFilesOf(join(fixtures, 'synthetic/v4-direct'))],
  ['v0-mailbox (the mailbox era)', finalFilesOf(join(fixtures, 'synthetic/v0-mailbox'))],
  ['gap-then-turn-end (damage inside committed history)', finalFilesOf(join(fixtures, 'crafted/gap-then-turn-end'))],
  ['zstd-cli (zstd frames)', finalFilesOf(join(fixtures, 'crafted/zstd-cli'))],
  ['torn-tail', finalFilesOf(join(fixtures, 'crafted/torn-tail'))],
];

const seeds = [1, 2, 3, 4, 5, 6, 7, 8];

describe('a followed folder ends with the views of a one-shot replay of its final files', () => {
  for (const [name, files] of cases) {
    it.each(seeds)(`${name}: pieces interleaved as seed %i orders them`, async (seed) => {
      const run = await runConvergence(files, seed);
      expect(run.followed).toEqual(run.oneShot);
    });
  }
});

describe('a followed folder with one log damaged at a random place ends as a one-shot replay of it', () => {
  const base: ReadonlyArray<readonly [string, FinalFiles]> = [
    cases[0] as readonly [string, FinalFiles],
    cases[1] as readonly [string, FinalFiles],
    cases[2] as readonly [string, FinalFiles],
  ];
  const damages: readonly Damage[] = ['repeat-line', 'garbage-line', 'cut-line'];
  for (const [name, files] of base) {
    for (const damage of damages) {
      it.each([11, 12, 13, 14])(`${name}, ${damage}: seed %i`, async (seed) => {
        const run = await runConvergence(damaged(files, seededRandom(seed * 7919), damage), seed);
        expect(run.followed).toEqual(run.oneShot);
      });
    }
  }
});

describe('a followed folder where a log is migrated with renumbered seqs ends as a one-shot replay of the later generation', () => {
  /** A generated V4 session of a few turns, as one harness folder. */
  const generated = async (): Promise<FinalFiles> => {
    const directory = mkdtempSync(join(tmpdir(), 'teamlog-generated-'));
    try {
      const file = join(directory, 'session.v4.jsonl');
      await generateSyntheticLog({ file, targetBytes: 6000, formatVersion: 4, sessionId: 'generated-session' });
      return new Map([['generated/session.v4.jsonl', readFileSync(file)]]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  };
  /**
   * A generated session written at generation `lower`, and the same session as the next generation
   * writes it (its own layout, so its seqs do not line up with the lower one's: V1 to V2 drops the
   * packed chunk rows, V2 to V3 inserts a `system/message`).
   */
  const generatedMigration = async (lower: 1 | 2): Promise<FinalFiles> => {
    const directory = mkdtempSync(join(tmpdir(), 'teamlog-generated-'));
    try {
      const files: Array<readonly [string, Buffer]> = [];
      for (const formatVersion of lower === 1 ? ([1, 2] as const) : ([2, 3] as const)) {
        const file = join(directory, `session.v${formatVersion}.jsonl`);
        await generateSyntheticLog({ file, targetBytes: 6000, formatVersion, sessionId: 'generated-session' });
        files.push([`generated/session.v${formatVersion}.jsonl`, readFileSync(file)]);
      }
      return new Map(files);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  };
  const direct = finalFilesOf(join(fixtures, 'synthetic/v4-direct'));
  const migrated: ReadonlyArray<readonly [string, () => Promise<FinalFiles>]> = [
    [
      'v4-direct, the Lead log V3 then V4',
      async () => withRenumberedGeneration(direct, 'direct-lead/session.v4.jsonl'),
    ],
    [
      'v4-direct, both logs V3 then V4',
      async () =>
        withRenumberedGeneration(
          withRenumberedGeneration(direct, 'direct-lead/session.v4.jsonl'),
          'direct-reviewer/session.v4.jsonl',
        ),
    ],
    [
      'a generated session, V3 then V4',
      async () => withRenumberedGeneration(await generated(), 'generated/session.v4.jsonl'),
    ],
    ['a generated session, V1 then V2', () => generatedMigration(1)],
    ['a generated session, V2 then V3', () => generatedMigration(2)],
  ];
  /** Each migrated log's lower file is laid whole before its next generation, as a harness migrates a log it has written. */
  const migrationsOf = (files: FinalFiles): Array<readonly [string, string]> =>
    [...files.keys()].flatMap((file) => {
      const version = /session\.v(\d)\.jsonl$/.exec(file)?.[1];
      const next = version === undefined ? undefined : file.replace(/v\d\.jsonl$/, `v${Number(version) + 1}.jsonl`);
      return next !== undefined && files.has(next) ? [[file, next] as const] : [];
    });
  for (const [name, files] of migrated) {
    it.each([1, 2, 3, 4, 5, 6, 7, 8])(`${name}, any interleaving: seed %i`, async (seed) => {
      const run = await runConvergence(await files(), seed);
      expect(run.followed).toEqual(run.oneShot);
    });
    it.each([1, 2, 3, 4, 5, 6, 7, 8])(`${name}, the later generation after the lower: seed %i`, async (seed) => {
      const laid = await files();
      const run = await runConvergence(laid, seed, { inOrder: migrationsOf(laid) });
      expect(run.followed).toEqual(run.oneShot);
    });
  }

  it('the later generation damaged at a random place: seed %i', async () => {
    for (const seed of [21, 22, 23]) {
      for (const damage of ['repeat-line', 'garbage-line'] as const) {
        const files = withRenumberedGeneration(direct, 'direct-lead/session.v4.jsonl');
        const laid = damaged(
          new Map([...files].filter(([file]) => !file.endsWith('v3.jsonl'))),
          seededRandom(seed),
          damage,
        );
        const all = new Map([...files, ...laid]);
        const run = await runConvergence(all, seed, { inOrder: migrationsOf(all) });
        expect(run.followed).toEqual(run.oneShot);
      }
    }
  });
});
