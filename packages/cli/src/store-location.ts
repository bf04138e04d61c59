import { isAbsolute, join } from 'path';
import { isEventStoreDbUrl, redactEventStoreUrl } from '@teamlog/store-eventstoredb';

/** Where the events live, as `--store` / `TEAMLOG_STORE` name it. */
export type StoreLocation =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'memory' }
  | { readonly kind: 'eventstoredb'; readonly url: string };

export const defaultStoreFile = join('.teamlog', 'teamlog.db');

/** `--store` wins over `TEAMLOG_STORE`, which wins over `.teamlog/teamlog.db` under `cwd`. */
export const resolveStoreLocation = (flag: string | undefined, env: Readonly<Record<string, string | undefined>>, cwd: string): StoreLocation => {
  const named = flag ?? (env['TEAMLOG_STORE'] === '' ? undefined : env['TEAMLOG_STORE']);
  if (named === undefined) return { kind: 'sqlite', file: join(cwd, defaultStoreFile) };
  if (named === ':memory:') return { kind: 'memory' };
  if (isEventStoreDbUrl(named)) return { kind: 'eventstoredb', url: named.trim() };
  return { kind: 'sqlite', file: isAbsolute(named) ? named : join(cwd, named) };
};

/** For messages: the file, or the URL without its password. */
export const describeStoreLocation = (location: StoreLocation): string => {
  switch (location.kind) {
    case 'sqlite':
      return location.file;
    case 'memory':
      return ':memory: (nothing is kept)';
    case 'eventstoredb':
      return redactEventStoreUrl(location.url);
    default: {
      const unreachable: never = location;
      return unreachable;
    }
  }
};
