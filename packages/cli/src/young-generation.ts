import { setFlagsFromString } from 'node:v8';
import { nodeFlagGiven } from './node-flag-given';

/** V8's own factor (`node --v8-options`): each time the young generation grows, it doubles, up to 16 MiB semi-spaces. */
const v8GrowthFactor = 2;

/** The flags that size the young generation: given by the person running Node, teamlog leaves it alone. */
const sizingFlags = ['--max-semi-space-size', '--semi-space-growth-factor', '--min-semi-space-size'] as const;

const sizedByUser = (): boolean =>
  sizingFlags.some((flag) => nodeFlagGiven(flag, process.execArgv, process.env.NODE_OPTIONS));

const setGrowthFactor = (factor: number): void => {
  if (!sizedByUser()) setFlagsFromString(`--semi-space-growth-factor=${factor}`);
};

/**
 * Keep V8's young generation at the size it starts with (1 MiB semi-spaces) instead of letting it
 * double up to 16 MiB, from before the commands load: an import into SQLite promotes little and
 * the young generation is most of what V8 would keep resident past its working set. V8 reads the
 * young generation's maximum only when it starts (`--max-semi-space-size`), but it reads its growth
 * factor each time the young generation would grow, so at 1 it never grows
 * (docs/historical-logs.md#memory). Not a limit: nothing runs out of memory.
 */
export const holdYoungGeneration = (): void => setGrowthFactor(1);

/** Let the young generation grow again as V8 grows it (a command whose working set is not bounded, or a server). */
export const releaseYoungGeneration = (): void => setGrowthFactor(v8GrowthFactor);
