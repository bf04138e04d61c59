import { setFlagsFromString } from 'node:v8';
import { nodeFlagGiven } from './node-flag-given';

/** The flags that size the young generation: given by the person running Node, teamlog leaves it alone. */
const sizingFlags = ['--max-semi-space-size', '--semi-space-growth-factor', '--min-semi-space-size'] as const;

/**
 * Stop V8's young generation from growing past the size it has now (the start-up leaves it at 4
 * MiB, two 2 MiB semi-spaces, as `v8.getHeapSpaceStatistics()` reports it; V8 would double the
 * semi-spaces up to 16 MiB): an import into SQLite promotes little, and a
 * large young generation is most of what V8 keeps resident past the import's working set. V8 reads
 * the young generation's maximum only when it starts (`--max-semi-space-size`), but it reads its
 * growth factor each time the young generation would grow, so at 1 it grows no more
 * (docs/historical-logs.md#memory). Not a limit: nothing runs out of memory. Held from the start
 * instead (1 MiB semi-spaces), it peaked a few MiB lower for 20-30% more CPU; held one doubling
 * later (4 MiB semi-spaces), half the scavenges gave no CPU back for 5-8 MiB more (docs/benchmarks.md).
 */
export const holdYoungGeneration = (): void => {
  if (!sizingFlags.some((flag) => nodeFlagGiven(flag, process.execArgv, process.env.NODE_OPTIONS)))
    setFlagsFromString('--semi-space-growth-factor=1');
};
