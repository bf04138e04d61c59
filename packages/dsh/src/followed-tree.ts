import { type Dirent, type Stats, promises as fs, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { type FollowContext, FollowedLog, type LogChange } from './followed-log';
import { type DiscoveredLog, logsInDirectory } from './session-file-discovery';

/** Where the follower reports directories as it learns of them and forgets them (its watches). */
export interface DirectoryListener {
  add(directory: string): void;
  removeTree(directory: string): void;
}

/** What a follower follows: every log under a root directory, or one file. */
export interface FollowedLogs {
  /** Look at one directory (its logs, its new subdirectories, whole); the first call walks the root. */
  lookAt(directory: string, changes: LogChange[]): Promise<void>;
  /** Look at everything by signature (stat), reading directories whose listing may have changed. */
  pollAll(changes: LogChange[]): Promise<void>;
  /** Drop the imports under way (the follower stops): they write nothing. */
  dispose(): Promise<void>;
}

interface FollowedEntry {
  log: DiscoveredLog;
  readonly followed: FollowedLog;
}

interface FollowedDirectory {
  readonly logs: Map<string, FollowedEntry>;
  subdirectories: ReadonlySet<string>;
  mtimeMs: number;
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const isGone = (error: unknown): boolean =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');

/**
 * A directory's mtime moves when an entry is added, removed or renamed; on a file system with
 * coarse timestamps an entry added in the same tick as the last listing would not move it, so a
 * directory changed this recently is listed again whatever its mtime says.
 */
const recentMs = 2000;

const look = async (entry: FollowedEntry, changes: LogChange[]): Promise<void> => {
  const change = await entry.followed.look(entry.log);
  if (change !== undefined) changes.push(change);
};

/**
 * The directories under a root as the importer reads them (every directory, recursively, in name
 * order, symbolic links not followed; the highest generation of each log), each with its logs.
 * A directory is listed when it is first seen, when its watch reports something, or when a poll
 * finds its mtime moved; the logs are looked at by signature, not read.
 */
export class FollowedTree implements FollowedLogs {
  private readonly directories = new Map<string, FollowedDirectory>();

  constructor(
    private readonly context: FollowContext,
    private readonly listener: DirectoryListener | undefined,
    private readonly root: string = context.rootDirectory,
  ) {}

  get directoryCount(): number {
    return this.directories.size;
  }

  async lookAt(directory: string, changes: LogChange[]): Promise<void> {
    const known = this.directories.get(directory);
    // Watch a new directory before listing it, so nothing written in between goes unseen.
    if (known === undefined) this.listener?.add(directory);
    let stats: Stats;
    let entries: Dirent[];
    try {
      stats = await fs.stat(directory);
      entries = (await fs.readdir(directory, { withFileTypes: true })).sort(byName);
    } catch (error) {
      if (!isGone(error)) throw error;
      this.forget(directory);
      return;
    }
    const state: FollowedDirectory = known ?? { logs: new Map(), subdirectories: new Set(), mtimeMs: stats.mtimeMs };
    state.mtimeMs = stats.mtimeMs;
    this.directories.set(directory, state);
    const logs = logsInDirectory(directory, entries);
    for (const log of logs) {
      const entry = state.logs.get(log.stem) ?? { log, followed: new FollowedLog(this.context) };
      entry.log = log;
      state.logs.set(log.stem, entry);
      await look(entry, changes);
    }
    const stems = new Set(logs.map((log) => log.stem));
    for (const [stem, entry] of state.logs) {
      if (stems.has(stem)) continue;
      state.logs.delete(stem);
      await entry.followed.dispose();
    }
    const subdirectories = new Set(
      entries.filter((entry) => entry.isDirectory()).map((entry) => join(directory, entry.name)),
    );
    for (const gone of state.subdirectories) if (!subdirectories.has(gone)) this.forget(gone);
    state.subdirectories = subdirectories;
    for (const subdirectory of subdirectories) {
      if (!this.directories.has(subdirectory)) await this.lookAt(subdirectory, changes);
    }
  }

  async pollAll(changes: LogChange[]): Promise<void> {
    // The root itself, removed and made again, is looked for: nothing else would see it come back.
    if (!this.directories.has(this.root)) await this.lookAt(this.root, changes);
    const paths = [...this.directories.keys()].sort();
    for (const directory of paths) {
      const state = this.directories.get(directory);
      if (state === undefined) continue; // forgotten with its parent earlier in this pass
      // Synchronous, as the logs' signatures are: a poll stats every directory (see file-signature.ts).
      const mtimeMs = statSync(directory, { throwIfNoEntry: false })?.mtimeMs;
      if (mtimeMs === undefined) {
        this.forget(directory);
        continue;
      }
      if (mtimeMs !== state.mtimeMs || Date.now() - mtimeMs < recentMs) await this.lookAt(directory, changes);
      else for (const entry of state.logs.values()) await look(entry, changes);
    }
  }

  async dispose(): Promise<void> {
    for (const state of this.directories.values())
      for (const entry of state.logs.values()) await entry.followed.dispose();
  }

  private forget(directory: string): void {
    const prefix = `${directory}${sep}`;
    for (const [path, state] of [...this.directories]) {
      if (path !== directory && !path.startsWith(prefix)) continue;
      this.directories.delete(path);
      // A gone log's import under way fails at its next read (the file is gone) or is dropped here.
      for (const entry of state.logs.values()) void entry.followed.dispose();
    }
    this.listener?.removeTree(directory);
  }
}

/** A root that is one file: that file alone, whatever its name (as `importSessionLogs` reads it). */
export class FollowedFile implements FollowedLogs {
  private readonly entry: FollowedEntry;

  constructor(context: FollowContext, log: DiscoveredLog) {
    this.entry = { log, followed: new FollowedLog(context) };
  }

  lookAt(_directory: string, changes: LogChange[]): Promise<void> {
    return look(this.entry, changes);
  }

  pollAll(changes: LogChange[]): Promise<void> {
    return look(this.entry, changes);
  }

  dispose(): Promise<void> {
    return this.entry.followed.dispose();
  }
}
