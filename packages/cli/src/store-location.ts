import { isAbsolute, join } from 'node:path';

/** Where the events live, as `--store` / `TEAMLOG_STORE` name it. */
export type StoreLocation =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'memory' }
  | { readonly kind: 'eventstoredb'; readonly url: string }
  | { readonly kind: 'postgres'; readonly url: string };

export const defaultStoreFile = join('.teamlog', 'teamlog.db');

/**
 * The connection-string schemes `isEventStoreDbUrl` of @teamlog/store-eventstoredb accepts (a test
 * keeps the two in step). Checked here so that choosing a store does not load the gRPC client,
 * which costs every command half a second; the adapter is loaded only to open such a store.
 */
export const isEventStoreDbScheme = (text: string): boolean => /^esdb(\+discover)?:\/\//i.test(text.trim());

/**
 * The connection-string schemes `isPostgresUrl` of @teamlog/store-postgres accepts (a test keeps
 * the two in step), checked here so that choosing a store loads no driver.
 */
export const isPostgresScheme = (text: string): boolean => /^postgres(ql)?:\/\//i.test(text.trim());

/** A connection string without its password (in the user part, or a `password=` parameter), for anything printed. */
export const withoutPassword = (url: string): string =>
  url.replace(/^([a-z+]+:\/\/[^:@/]*):[^@/]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');

/** `--store` wins over `TEAMLOG_STORE`, which wins over `.teamlog/teamlog.db` under `cwd`. */
export const resolveStoreLocation = (
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): StoreLocation => {
  const named = flag ?? (env.TEAMLOG_STORE === '' ? undefined : env.TEAMLOG_STORE);
  if (named === undefined) return { kind: 'sqlite', file: join(cwd, defaultStoreFile) };
  if (named === ':memory:') return { kind: 'memory' };
  if (isEventStoreDbScheme(named)) return { kind: 'eventstoredb', url: named.trim() };
  if (isPostgresScheme(named)) return { kind: 'postgres', url: named.trim() };
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
    case 'postgres':
      return withoutPassword(location.url);
    default: {
      const unreachable: never = location;
      return unreachable;
    }
  }
};
