import { join } from 'node:path';
import { isEventStoreDbUrl, redactEventStoreUrl } from '@teamlog/store-eventstoredb';
import { isPostgresUrl, redactPostgresUrl } from '@teamlog/store-postgres';
import {
  describeStoreLocation,
  isEventStoreDbScheme,
  isPostgresScheme,
  resolveStoreLocation,
  withoutPassword,
} from '../src/store-location';

const cwd = '/home/someone/project';

describe('resolveStoreLocation', () => {
  it('defaults to .teamlog/teamlog.db under the current directory', () => {
    expect(resolveStoreLocation(undefined, {}, cwd)).toEqual({
      kind: 'sqlite',
      file: join(cwd, '.teamlog', 'teamlog.db'),
    });
  });

  it('uses TEAMLOG_STORE when no --store is given, and ignores it when empty', () => {
    expect(resolveStoreLocation(undefined, { TEAMLOG_STORE: '/data/t.db' }, cwd)).toEqual({
      kind: 'sqlite',
      file: '/data/t.db',
    });
    expect(resolveStoreLocation(undefined, { TEAMLOG_STORE: '' }, cwd)).toEqual({
      kind: 'sqlite',
      file: join(cwd, '.teamlog', 'teamlog.db'),
    });
  });

  it('lets --store win over TEAMLOG_STORE', () => {
    expect(resolveStoreLocation(':memory:', { TEAMLOG_STORE: '/data/t.db' }, cwd)).toEqual({ kind: 'memory' });
  });

  it('resolves a relative file against the current directory', () => {
    expect(resolveStoreLocation('out/t.db', {}, cwd)).toEqual({ kind: 'sqlite', file: join(cwd, 'out', 't.db') });
  });

  it('opens esdb:// and esdb+discover:// URLs with the EventStoreDB adapter', () => {
    expect(resolveStoreLocation('esdb://localhost:2113?tls=false', {}, cwd)).toEqual({
      kind: 'eventstoredb',
      url: 'esdb://localhost:2113?tls=false',
    });
    expect(resolveStoreLocation('esdb+discover://a:2113,b:2113', {}, cwd).kind).toBe('eventstoredb');
  });

  it('opens postgres:// and postgresql:// URLs, from --store or TEAMLOG_STORE, with the PostgreSQL adapter', () => {
    expect(resolveStoreLocation(' postgres://teamlog:pw@db:5432/teamlog ', {}, cwd)).toEqual({
      kind: 'postgres',
      url: 'postgres://teamlog:pw@db:5432/teamlog',
    });
    expect(resolveStoreLocation(undefined, { TEAMLOG_STORE: 'postgresql://db/teamlog' }, cwd)).toEqual({
      kind: 'postgres',
      url: 'postgresql://db/teamlog',
    });
  });
});

describe('describeStoreLocation', () => {
  it('never shows a password of a connection string', () => {
    const shown = describeStoreLocation({ kind: 'eventstoredb', url: 'esdb://admin:secret@db:2113' });
    expect(shown).not.toContain('secret');
    expect(shown).toContain('db:2113');
  });

  it('never shows the password of a PostgreSQL URL, in the user part or as a parameter', () => {
    expect(describeStoreLocation({ kind: 'postgres', url: 'postgres://teamlog:s3cret@db:5432/teamlog' })).toBe(
      'postgres://teamlog:***@db:5432/teamlog',
    );
    expect(describeStoreLocation({ kind: 'postgres', url: 'postgres://teamlog@db/teamlog?password=s3cret' })).toBe(
      'postgres://teamlog@db/teamlog?password=***',
    );
  });

  it('says that :memory: keeps nothing', () => {
    expect(describeStoreLocation({ kind: 'memory' })).toBe(':memory: (nothing is kept)');
  });
});

describe("the CLI's own URL checks (kept so that the gRPC client loads only when used)", () => {
  const urls = [
    'esdb://localhost:2113?tls=false',
    'ESDB://h:1',
    ' esdb+discover://a:1,b:2',
    'esdb://admin:changeit@db:2113',
    'kurrentdb://h:1',
    'http://h',
    'esdb:/h',
    'store.db',
    ':memory:',
  ];

  it.each(urls)('agree with isEventStoreDbUrl of the adapter on %p', (url) => {
    expect(isEventStoreDbScheme(url)).toBe(isEventStoreDbUrl(url));
  });

  it.each(urls)('agree with redactEventStoreUrl of the adapter on %p', (url) => {
    expect(withoutPassword(url)).toBe(redactEventStoreUrl(url));
  });
});

describe("the CLI's PostgreSQL URL checks (kept so that choosing a store loads no driver)", () => {
  const urls = [
    'postgres://teamlog:s3cret@db:5432/teamlog',
    'postgresql://db/teamlog',
    ' POSTGRES://u@h/d',
    'postgres://u@h/d?password=pw&sslmode=require',
    'postgres:/h',
    'pg://h',
    'store.db',
    ':memory:',
  ];

  it.each(urls)('agree with isPostgresUrl of the adapter on %p', (url) => {
    expect(isPostgresScheme(url)).toBe(isPostgresUrl(url));
  });

  it.each(urls)('agree with redactPostgresUrl of the adapter on %p', (url) => {
    expect(withoutPassword(url)).toBe(redactPostgresUrl(url));
  });
});
