import { join } from 'path';
import { isEventStoreDbUrl, redactEventStoreUrl } from '@teamlog/store-eventstoredb';
import { describeStoreLocation, isEventStoreDbScheme, resolveStoreLocation, withoutPassword } from '../src/store-location';

const cwd = '/home/someone/project';

describe('resolveStoreLocation', () => {
  it('defaults to .teamlog/teamlog.db under the current directory', () => {
    expect(resolveStoreLocation(undefined, {}, cwd)).toEqual({ kind: 'sqlite', file: join(cwd, '.teamlog', 'teamlog.db') });
  });

  it('uses TEAMLOG_STORE when no --store is given, and ignores it when empty', () => {
    expect(resolveStoreLocation(undefined, { TEAMLOG_STORE: '/data/t.db' }, cwd)).toEqual({ kind: 'sqlite', file: '/data/t.db' });
    expect(resolveStoreLocation(undefined, { TEAMLOG_STORE: '' }, cwd)).toEqual({ kind: 'sqlite', file: join(cwd, '.teamlog', 'teamlog.db') });
  });

  it('lets --store win over TEAMLOG_STORE', () => {
    expect(resolveStoreLocation(':memory:', { TEAMLOG_STORE: '/data/t.db' }, cwd)).toEqual({ kind: 'memory' });
  });

  it('resolves a relative file against the current directory', () => {
    expect(resolveStoreLocation('out/t.db', {}, cwd)).toEqual({ kind: 'sqlite', file: join(cwd, 'out', 't.db') });
  });

  it('opens esdb:// and esdb+discover:// URLs with the EventStoreDB adapter', () => {
    expect(resolveStoreLocation('esdb://localhost:2113?tls=false', {}, cwd)).toEqual({ kind: 'eventstoredb', url: 'esdb://localhost:2113?tls=false' });
    expect(resolveStoreLocation('esdb+discover://a:2113,b:2113', {}, cwd).kind).toBe('eventstoredb');
  });
});

describe('describeStoreLocation', () => {
  it('never shows a password of a connection string', () => {
    const shown = describeStoreLocation({ kind: 'eventstoredb', url: 'esdb://admin:secret@db:2113' });
    expect(shown).not.toContain('secret');
    expect(shown).toContain('db:2113');
  });

  it('says that :memory: keeps nothing', () => {
    expect(describeStoreLocation({ kind: 'memory' })).toBe(':memory: (nothing is kept)');
  });
});

describe('the CLI\'s own URL checks (kept so that the gRPC client loads only when used)', () => {
  const urls = ['esdb://localhost:2113?tls=false', 'ESDB://h:1', ' esdb+discover://a:1,b:2', 'esdb://admin:changeit@db:2113', 'kurrentdb://h:1', 'http://h', 'esdb:/h', 'store.db', ':memory:'];

  it.each(urls)('agree with isEventStoreDbUrl of the adapter on %p', (url) => {
    expect(isEventStoreDbScheme(url)).toBe(isEventStoreDbUrl(url));
  });

  it.each(urls)('agree with redactEventStoreUrl of the adapter on %p', (url) => {
    expect(withoutPassword(url)).toBe(redactEventStoreUrl(url));
  });
});
