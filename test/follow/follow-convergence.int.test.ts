import { join } from 'node:path';
import {
  type Damage,
  type FinalFiles,
  damaged,
  finalFilesOf,
  runConvergence,
  seededRandom,
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
