import type { PrefetchedLog } from './log-prefetch';
import type { DiscoveredLog, UnreadableDirectory } from './session-file-discovery';

/** What the walk found next, in the walk's order: a log with its first reads asked for, or a directory it could not list. */
export type FoundLog =
  | { readonly kind: 'log'; readonly log: DiscoveredLog; readonly prefetched: PrefetchedLog }
  | { readonly kind: 'unreadable'; readonly unreadable: UnreadableDirectory };

interface Step {
  readonly result: IteratorResult<DiscoveredLog>;
  /** The directories found unreadable on the way to `result`: they come before it. */
  readonly unreadable: readonly UnreadableDirectory[];
  readonly prefetched: PrefetchedLog | undefined;
}

/** A walk of logs that reports the directories it cannot list as it goes (`discoverSessionLogs` of a root). */
export type LogWalk = (onUnreadable: (unreadable: UnreadableDirectory) => void) => AsyncGenerator<DiscoveredLog>;

/**
 * The logs `walk` finds (`discoverSessionLogs` of a root), one ahead: while the consumer imports
 * a log, the walk to the next one (its directory listings) and that log's first reads
 * (`prefetch`) are in flight. Never more than one log ahead, so memory holds one file's first
 * reads beyond the current file's. The order is the walk's, unreadable directories included.
 */
export async function* prefetchedLogs(
  walk: LogWalk,
  prefetch: (file: string) => PrefetchedLog,
): AsyncGenerator<FoundLog> {
  let unreadable: UnreadableDirectory[] = [];
  const logs = walk((directory) => unreadable.push(directory));
  // One step at a time is asked for, so the directories reported meanwhile are this step's.
  const step = async (): Promise<Step> => {
    const result = await logs.next();
    const passed = unreadable;
    unreadable = [];
    return { result, unreadable: passed, prefetched: result.done === true ? undefined : prefetch(result.value.file) };
  };
  let pending: Promise<Step> | undefined = step();
  try {
    for (;;) {
      const current: Step = await pending;
      pending = undefined;
      for (const directory of current.unreadable) yield { kind: 'unreadable', unreadable: directory };
      if (current.result.done === true) return;
      pending = step();
      // Held: a failed walk fails the consumer when it asks for the next log, not meanwhile.
      pending.catch(() => undefined);
      yield { kind: 'log', log: current.result.value, prefetched: current.prefetched as PrefetchedLog };
    }
  } finally {
    // The consumer stopped early: the log asked for ahead is closed, and the walk with it.
    const ahead = await pending?.catch(() => undefined);
    await ahead?.prefetched?.release();
    await logs.return(undefined);
  }
}
