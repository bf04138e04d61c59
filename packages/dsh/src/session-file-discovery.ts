import { type Dirent, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type Compression, parseSessionFileName } from './session-file-name';

export interface DiscoveredLog {
  /** The file to read: the highest generation of its log. */
  readonly file: string;
  readonly directory: string;
  readonly stem: string;
  readonly generation: number;
  readonly compression: Compression;
  /** Older generations beside it (kept by the writer as history; not read). */
  readonly olderGenerations: readonly string[];
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The logs of one directory: its `*.jsonl[.zstd]` files grouped by stem (`session`,
 * `session.1`, `seed`, ...), the highest generation of each. When one generation exists both raw
 * and zstd (a root uses one encoding, so this is unusual) the zstd file is read.
 */
export const logsInDirectory = (directory: string, entries: readonly Dirent[]): DiscoveredLog[] => {
  const groups = new Map<string, Array<{ file: string; generation: number; compression: Compression }>>();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const parsed = parseSessionFileName(entry.name);
    if (parsed === undefined) continue;
    const group = groups.get(parsed.stem) ?? [];
    group.push({ file: join(directory, entry.name), generation: parsed.generation, compression: parsed.compression });
    groups.set(parsed.stem, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([stem, files]) => {
      const ranked = [...files].sort((a, b) => b.generation - a.generation || (a.compression === 'zstd' ? -1 : 1));
      const chosen = ranked[0] as (typeof ranked)[number];
      return {
        file: chosen.file,
        directory,
        stem,
        generation: chosen.generation,
        compression: chosen.compression,
        olderGenerations: ranked.slice(1).map((other) => other.file),
      };
    });
};

/** A directory under the root that could not be listed (permissions, a race with a delete): reported, the walk goes on. */
export interface UnreadableDirectory {
  readonly directory: string;
  readonly error: Error;
}

/**
 * Every session log under `path`: a file is itself (whatever its name); a directory yields the
 * logs of every directory under it, recursively, in name order. Symbolic links are not followed.
 * A subdirectory that cannot be listed is passed to `onUnreadable` and skipped; only `path`
 * itself failing throws.
 */
export async function* discoverSessionLogs(
  path: string,
  onUnreadable: (unreadable: UnreadableDirectory) => void = () => undefined,
): AsyncGenerator<DiscoveredLog> {
  const stat = await fs.stat(path);
  if (stat.isFile()) {
    const parsed = parseSessionFileName(basename(path));
    yield {
      file: path,
      directory: dirname(path),
      stem: parsed?.stem ?? path,
      generation: parsed?.generation ?? 0,
      compression: parsed?.compression ?? 'none',
      olderGenerations: [],
    };
    return;
  }
  yield* walkDirectory(path, await fs.readdir(path, { withFileTypes: true }), onUnreadable);
}

async function* walkDirectory(
  directory: string,
  unsorted: Dirent[],
  onUnreadable: (unreadable: UnreadableDirectory) => void,
): AsyncGenerator<DiscoveredLog> {
  const entries = unsorted.sort(byName);
  yield* logsInDirectory(directory, entries);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const child = join(directory, entry.name);
    let listed: Dirent[];
    try {
      listed = await fs.readdir(child, { withFileTypes: true });
    } catch (error) {
      onUnreadable({ directory: child, error: error as Error });
      continue;
    }
    yield* walkDirectory(child, listed, onUnreadable);
  }
}
