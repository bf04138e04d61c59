import { freeLoopbackPort } from '@teamlog/postgres-testing';
import { newEvent, uniqueStream } from '@teamlog/store-conformance';
import { openPostgresStore } from '@teamlog/store-postgres';
import { rawQuery } from './raw-sql';
import { databaseForFile, withStore } from './test-database';

const secret = 'Sup3r-S3cret-pw';

/** The URL with a password: the server's own if it has one, else one that trust authentication ignores. */
const withPassword = (url: string): { readonly url: string; readonly password: string } => {
  const parsed = new URL(url);
  if (parsed.password !== '') return { url, password: decodeURIComponent(parsed.password) };
  parsed.password = secret;
  return { url: parsed.toString(), password: secret };
};

/** Everything an error can show: message, stack, own fields, causes. */
const everythingShown = (error: unknown): string => {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    if (current instanceof Error) parts.push(current.message, current.stack ?? '');
    parts.push(
      JSON.stringify(current, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)) ?? '',
    );
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join('\n');
};

describe("the connection string's password", () => {
  const database = databaseForFile('password');

  it('never appears in the error when the server cannot be reached', async () => {
    const port = await freeLoopbackPort();
    const error = await openPostgresStore(`postgres://teamlog:${secret}@127.0.0.1:${port}/teamlog`, {
      retry: { initialDelayMs: 1, maxDelayMs: 1, maxAttempts: 1 },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'StoreFailure', fault: { failure: 'unavailable' } });
    expect((error as Error).message).toContain(`postgres://teamlog:***@127.0.0.1:${port}/teamlog`);
    expect(everythingShown(error)).not.toContain(secret);
  });

  it('never appears in the error for a database that does not exist, nor for a malformed URL', async () => {
    const { url, password } = withPassword(database().url);
    const missing = new URL(url);
    missing.pathname = '/teamlog_no_such_database';
    const error = await openPostgresStore(missing.toString()).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/does not exist/);
    expect(everythingShown(error)).not.toContain(password);
    const malformed = await openPostgresStore(`postgres://teamlog:${secret}@[bad-host/teamlog`).catch(
      (e: unknown) => e,
    );
    expect(malformed).toMatchObject({ code: 'InvalidPostgresUrl' });
    expect(everythingShown(malformed)).not.toContain(secret);
    const badPort = await openPostgresStore(`postgres://teamlog:${secret}@db:port/teamlog`).catch((e: unknown) => e);
    expect(badPort).toMatchObject({ code: 'InvalidPostgresUrl' });
    expect((badPort as Error).message).toBe('postgres://teamlog:***@db:port/teamlog: Invalid URL');
  });

  it("never appears in the store's log lines about dropped connections and retries", async () => {
    const { url, password } = withPassword(database().url);
    const log: string[] = [];
    await withStore(
      url,
      async (store) => {
        const subscription = store.subscribeToAll({ fromPosition: 'end' });
        const iterator = subscription[Symbol.asyncIterator]();
        void iterator.next().catch(() => undefined);
        await store.appendToStream(uniqueStream('pw'), [newEvent()]);
        await new Promise((done) => setTimeout(done, 200));
        await rawQuery(
          database().url,
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'teamlog%'",
        );
        await store.appendToStream(uniqueStream('pw'), [newEvent()]);
        await new Promise((done) => setTimeout(done, 300));
        await subscription.unsubscribe();
      },
      { log: (line) => log.push(line) },
    );
    expect(log.length).toBeGreaterThan(0);
    expect(log.join('\n')).not.toContain(password);
  });
});
