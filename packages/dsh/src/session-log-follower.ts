import { promises as fs } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { EventStore } from '@teamlog/store';
import { DirectoryWatches, type WatchDirectory, type WatchEventKind } from './directory-watches';
import type { LogChange } from './followed-log';
import { FollowedFile, type FollowedLogs, FollowedTree } from './followed-tree';
import { type DiscoveredLog, discoverSessionLogs } from './session-file-discovery';
import { parseSessionFileName } from './session-file-name';
import type { ImportOptions } from './session-importer';

/** One batch of a follower: what it imported and what it could not. */
export interface FollowBatch {
  /** 0 for the first import of what the root held; then 1, 2, ... (batches that found nothing are not counted). */
  readonly number: number;
  /** The logs this batch appended to, added a header to, or warned about. */
  readonly changes: readonly LogChange[];
  /** Logs that appended events. */
  readonly files: number;
  readonly appended: number;
  /** One line each: a log that cannot be followed as it is, or the watch falling back to polling. */
  readonly warnings: readonly string[];
}

export type FollowMode =
  | { readonly kind: 'watch'; readonly directories: number }
  | { readonly kind: 'poll'; readonly intervalMs: number; readonly reason?: string };

export interface FollowOptions extends ImportOptions {
  /** Poll every `pollMs` milliseconds instead of watching (the fallback where watching fails uses it too; default 1000). */
  readonly pollMs?: number;
  /** Poll instead of using `fs.watch`. */
  readonly poll?: boolean;
  /** While watching, also look at everything every `rescanMs` (a watch can miss events when the system's queue overflows); default 60 000, 0 never. */
  readonly rescanMs?: number;
  /** How long to wait after a change before the batch starts, so a burst of writes is one batch (default 10 ms). */
  readonly settleMs?: number;
  /** Called after every batch that imported or warned (and after the first, whatever it found). */
  readonly onBatch?: (batch: FollowBatch) => void;
  /**
   * Runs each batch: the CLI folds its views inline around it, so they move with every batch
   * without being read back. Default: the batch alone.
   */
  readonly runBatch?: <A>(work: () => Promise<A>) => Promise<A>;
  /** How one directory is watched (default `fs.watch`; tests pass one that fails). */
  readonly watchDirectory?: WatchDirectory;
  /**
   * How long one look may read a growing log before the other logs get their turn (default 200
   * ms); what is left is read by the next batch, scheduled at once. So one log that grows by a
   * lot never holds the others back for longer than a slice per batch.
   */
  readonly sliceMs?: number;
  /**
   * A file refused as over a reader's limit, or whose refusal took this long (default 10 s), is
   * set aside with one warning and a record in the store: no follower reads it again, after a
   * restart too, until it changes (docs/rules.md#follow-set-aside).
   */
  readonly setAsideMs?: number;
}

export interface SessionLogFollower {
  readonly root: string;
  /** The first import, of everything the root held when following began. */
  readonly first: FollowBatch;
  /** Watching or polling (and why it polls). */
  mode(): FollowMode;
  /** Resolves once stopped; rejects when a batch failed (the store failed): following has then stopped. */
  readonly done: Promise<void>;
  /** Stop following: the batch in progress finishes first. */
  stop(): Promise<void>;
}

export const defaultPollMs = 1000;
const defaultRescanMs = 60_000;
const defaultSettleMs = 10;

/** How a batch's changes add up. */
const batchOf = (number: number, changes: readonly LogChange[], extraWarnings: readonly string[]): FollowBatch => ({
  number,
  changes,
  files: changes.filter((change) => change.appended > 0).length,
  appended: changes.reduce((sum, change) => sum + change.appended, 0),
  warnings: [...extraWarnings, ...changes.flatMap((change) => (change.warning === undefined ? [] : [change.warning]))],
});

/**
 * Follow a running harness: import everything under `root` (a root of session directories, a
 * session directory, or one file, as `importSessionLogs` reads them), then keep importing as the
 * harness writes: new directories and logs at any depth, logs that grow (only the new tail is
 * read), a higher generation beside a lower one (imported when its events line up with the
 * stored ones). Changes are seen by `fs.watch` on each directory, or by polling (stat only: size,
 * mtime and inode; no file is held open between looks). Nothing a log already stored is imported
 * twice; a log that shrinks or is replaced by different content is a one-line warning and
 * nothing is written from it, and the other logs go on.
 */
export const followSessionLogs = async (
  root: string,
  store: EventStore,
  options: FollowOptions = {},
): Promise<SessionLogFollower> => {
  const rootPath = resolve(root);
  const rootIsFile = (await fs.stat(rootPath)).isFile();
  const rootDirectory = rootIsFile ? dirname(rootPath) : rootPath;
  const context = {
    store,
    rootDirectory,
    importOptions: options,
    ...(options.sliceMs === undefined ? {} : { sliceMs: options.sliceMs }),
    ...(options.setAsideMs === undefined ? {} : { setAsideMs: options.setAsideMs }),
  };
  const pollMs = Math.max(1, options.pollMs ?? defaultPollMs);
  const settleMs = Math.max(0, options.settleMs ?? defaultSettleMs);
  const rescanMs = options.rescanMs ?? defaultRescanMs;
  const runBatch = options.runBatch ?? (<A>(work: () => Promise<A>) => work());

  const dirty = new Set<string>();
  let everything = false;
  let pendingWarnings: string[] = [];
  let mode: FollowMode =
    options.poll === true ? { kind: 'poll', intervalMs: pollMs } : { kind: 'watch', directories: 0 };
  let settleTimer: NodeJS.Timeout | undefined;
  let interval: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  /** The first import runs before any batch may. */
  let starting = true;
  let batches = 0;
  let settle: { readonly resolve: () => void; readonly reject: (error: unknown) => void } | undefined;
  const done = new Promise<void>((resolveDone, rejectDone) => {
    settle = { resolve: resolveDone, reject: rejectDone };
  });

  const onEvent = (directory: string, name: string | undefined, kind: WatchEventKind): void => {
    if (rootIsFile && name !== undefined && name !== basename(rootPath)) return;
    // A content change of a file that is no log (session.lock, notes): nothing to look at.
    if (!rootIsFile && kind === 'change' && name !== undefined && parseSessionFileName(name) === undefined) return;
    dirty.add(directory);
    schedule();
  };
  const watches = new DirectoryWatches(onEvent, (error) => fallBackToPolling(error), options.watchDirectory);
  const logs: FollowedLogs = rootIsFile
    ? new FollowedFile(context, await firstLog(rootPath))
    : new FollowedTree(context, mode.kind === 'watch' ? watches : undefined);

  const startInterval = (ms: number): void => {
    if (interval !== undefined) clearInterval(interval);
    interval = ms > 0 ? setInterval(() => request('everything'), ms) : undefined;
  };

  function fallBackToPolling(error: Error): void {
    if (mode.kind === 'poll') return;
    watches.close();
    const reason = `fs.watch failed (${error.message})`;
    mode = { kind: 'poll', intervalMs: pollMs, reason };
    pendingWarnings.push(`${reason}; polling every ${pollMs} ms instead`);
    if (!stopped) startInterval(pollMs);
    request('everything');
  }

  function request(what: 'everything'): void {
    if (what === 'everything') everything = true;
    schedule();
  }

  function schedule(): void {
    if (stopped || starting || settleTimer !== undefined || running !== undefined) return;
    settleTimer = setTimeout(() => {
      settleTimer = undefined;
      running = nextBatch()
        .catch((error: unknown) => fail(error))
        .finally(() => {
          running = undefined;
          if (dirty.size > 0 || everything) schedule();
        });
    }, settleMs);
  }

  const takeWarnings = (): string[] => {
    const taken = pendingWarnings;
    pendingWarnings = [];
    return taken;
  };

  async function nextBatch(): Promise<void> {
    const all = everything;
    const directories = [...dirty].sort();
    everything = false;
    dirty.clear();
    const changes = await runBatch(async () => {
      const found: LogChange[] = [];
      if (all) await logs.pollAll(found);
      else for (const directory of directories) await logs.lookAt(directory, found);
      return found;
    });
    // A log whose slice ended with more to read: its directory is looked at again by the next batch.
    for (const change of changes)
      if (change.more === true) dirty.add(rootIsFile ? rootDirectory : dirname(change.file));
    const reported = changes.filter((change) => change.appended > 0 || change.header || change.warning !== undefined);
    const warnings = takeWarnings();
    if (reported.length === 0 && warnings.length === 0) return;
    batches += 1;
    options.onBatch?.(batchOf(batches, reported, warnings));
  }

  const halt = (): void => {
    stopped = true;
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    if (interval !== undefined) clearInterval(interval);
    settleTimer = undefined;
    interval = undefined;
    watches.close();
  };

  function fail(error: unknown): void {
    halt();
    settle?.reject(error);
  }

  const firstChanges = await runBatch(async () => {
    const found: LogChange[] = [];
    await logs.lookAt(rootDirectory, found);
    return found;
  }).catch((error: unknown) => {
    halt();
    throw error;
  });
  if (rootIsFile && mode.kind === 'watch') watches.add(rootDirectory);
  if (mode.kind === 'watch') startInterval(rescanMs);
  else startInterval(pollMs);
  // A log whose first import ended its slice with more to read: the next batch reads on.
  for (const change of firstChanges)
    if (change.more === true) dirty.add(rootIsFile ? rootDirectory : dirname(change.file));
  const first = batchOf(0, firstChanges, takeWarnings());
  options.onBatch?.(first);
  starting = false;
  if (dirty.size > 0 || everything) schedule();
  done.catch(() => undefined); // a caller that never awaits `done` sees failures through stop()

  return {
    root: rootPath,
    first,
    mode: () => (mode.kind === 'watch' ? { kind: 'watch', directories: watches.size } : mode),
    done,
    stop: async () => {
      if (!stopped) halt();
      await running;
      await logs.dispose();
      settle?.resolve();
      await done;
    },
  };
};

const firstLog = async (file: string): Promise<DiscoveredLog> => {
  for await (const log of discoverSessionLogs(file)) return log;
  throw new Error(`${file}: not a file`);
};
