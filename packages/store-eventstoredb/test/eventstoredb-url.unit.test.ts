import { isEventStoreDbUrl, openEventStoreDb, redactEventStoreUrl } from '@teamlog/store-eventstoredb';

describe('EventStoreDB connection strings', () => {
  it('recognises single-node and discovery connection strings, for --store and TEAMLOG_STORE', () => {
    expect(isEventStoreDbUrl('esdb://localhost:2113?tls=false')).toBe(true);
    expect(isEventStoreDbUrl('esdb://node1:2113,node2:2113,node3:2113')).toBe(true);
    expect(isEventStoreDbUrl('esdb+discover://cluster.example.com:2113')).toBe(true);
    expect(isEventStoreDbUrl('/var/lib/teamlog/store.db')).toBe(false);
    expect(isEventStoreDbUrl('http://localhost:2113')).toBe(false);
  });

  it('hides the password and keeps the rest', () => {
    expect(redactEventStoreUrl('esdb://admin:changeit@node1:2113?tls=true')).toBe(
      'esdb://admin:***@node1:2113?tls=true',
    );
    expect(redactEventStoreUrl('esdb://node1:2113')).toBe('esdb://node1:2113');
    expect(redactEventStoreUrl('esdb://ops:p/a:ss@node1:2113,node2:2113')).toBe('esdb://ops:***@node1:2113,node2:2113');
  });

  it('keeps the password out of a parse error that quotes the connection string', async () => {
    const error = await openEventStoreDb('esdb://ops:s3cret@node1:2113?nodePreference=s3cret').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'InvalidEventStoreUrl' });
    expect((error as Error).message).not.toContain('s3cret');
  });
});
