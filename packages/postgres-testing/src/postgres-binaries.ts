import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The server programs a throwaway cluster needs, from one installation. */
export interface PostgresBinaries {
  readonly directory: string;
  readonly initdb: string;
  readonly pgCtl: string;
}

/** Debian's layout: one `bin` per major version, not on PATH (`/usr/lib/postgresql/15/bin`). */
export const debianBinaryRoot = '/usr/lib/postgresql';

/** Version directories newest first ("16" before "15", "9.6" last). */
export const newestFirst = (versions: readonly string[]): string[] =>
  [...versions].filter((name) => /^\d+(\.\d+)?$/.test(name)).sort((a, b) => Number(b) - Number(a));

/** Where to look, in order: Debian's version directories, then PATH. */
export const candidateDirectories = (debianVersions: readonly string[], path: string | undefined): string[] => [
  ...newestFirst(debianVersions).map((version) => join(debianBinaryRoot, version, 'bin')),
  ...(path ?? '').split(delimiter).filter((entry) => entry.length > 0),
];

const listDirectory = (directory: string): string[] => {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
};

/** The first directory holding both `initdb` and `pg_ctl`, or undefined when none does. */
export const findPostgresBinaries = (
  exists: (file: string) => boolean = existsSync,
  versions: readonly string[] = listDirectory(debianBinaryRoot),
  path = process.env.PATH,
): PostgresBinaries | undefined => {
  for (const directory of candidateDirectories(versions, path)) {
    const initdb = join(directory, 'initdb');
    const pgCtl = join(directory, 'pg_ctl');
    if (exists(initdb) && exists(pgCtl)) return { directory, initdb, pgCtl };
  }
  return undefined;
};
