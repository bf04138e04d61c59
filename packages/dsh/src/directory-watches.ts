import { type FSWatcher, watch } from 'node:fs';

/** `fs.watch` on one directory, or a stand-in (tests make it fail). */
export type WatchDirectory = (directory: string, listener: (kind: string, name: string | null) => void) => FSWatcher;

const watchDirectory: WatchDirectory = (directory, listener) => watch(directory, { persistent: true }, listener);
import { basename, dirname, sep } from 'node:path';

/** `rename`: an entry appeared, went or was renamed; `change`: a file's content changed. */
export type WatchEventKind = 'rename' | 'change';

const isGone = (error: unknown): boolean =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');

/**
 * One `fs.watch` per directory, each on that directory alone (on Linux one inotify watch, and no
 * file descriptor, per directory; files are not watched one by one): a change to a file shows as
 * an event of its directory naming it. Node 20 also takes `recursive: true` on Linux, but emulates
 * it by reading the whole tree synchronously and watching every file and directory, each event
 * followed by a synchronous stat; a follower that already knows which directories it follows does
 * better watching just those. When a watch cannot be set up (the system's limit on watches,
 * `fs.inotify.max_user_watches`), `onFailure` is called once and no more watches are added.
 */
export class DirectoryWatches {
  private readonly watchers = new Map<string, FSWatcher>();
  private failed = false;

  constructor(
    private readonly onEvent: (directory: string, name: string | undefined, kind: WatchEventKind) => void,
    private readonly onFailure: (error: Error) => void,
    private readonly watchOne: WatchDirectory = watchDirectory,
  ) {}

  get size(): number {
    return this.watchers.size;
  }

  /** Watch a directory (not its subdirectories). A directory that is gone is skipped. */
  add(directory: string): void {
    if (this.failed || this.watchers.has(directory)) return;
    let watcher: FSWatcher;
    try {
      watcher = this.watchOne(directory, (kind, name) =>
        this.onEvent(directory, name ?? undefined, kind === 'change' ? 'change' : 'rename'),
      );
    } catch (error) {
      if (isGone(error)) return;
      this.failed = true;
      this.onFailure(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    watcher.on('error', () => {
      // The directory went away (or cannot be watched any more): its parent looks at what is left.
      this.removeTree(directory);
      this.onEvent(dirname(directory), basename(directory), 'rename');
    });
    this.watchers.set(directory, watcher);
  }

  /** Stop watching a directory and every directory under it. */
  removeTree(directory: string): void {
    const prefix = `${directory}${sep}`;
    for (const [path, watcher] of this.watchers) {
      if (path !== directory && !path.startsWith(prefix)) continue;
      watcher.close();
      this.watchers.delete(path);
    }
  }

  close(): void {
    this.watchers.forEach((watcher) => watcher.close());
    this.watchers.clear();
  }
}
