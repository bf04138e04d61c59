import type { MessageSource, SessionId } from '@teamlog/events';
import { scopeOfSessionId, scopeSource } from '@teamlog/projections';

describe('placeholder scope of a session', () => {
  it('is read from a scoped placeholder session id', () => {
    expect(scopeOfSessionId('{{session:1}}@snapshots/team-direct-inbox' as SessionId)).toBe(
      'snapshots/team-direct-inbox',
    );
  });

  it.each(['lead-1', '{{session:1}}', '5e0c0001-0000-4000-8000-000000000001@x'])('is absent for %s', (id) => {
    expect(scopeOfSessionId(id as SessionId)).toBeUndefined();
  });

  it('resolves every id a source names in the fixture scope, and leaves sources of real logs alone', () => {
    const source = {
      kind: 'team-message',
      teamId: '{{session:1}}',
      messageId: '{{message:3}}',
      senderId: 'real-id',
      senderName: 'lead',
    } as MessageSource;
    expect(scopeSource(source, 'fx')).toEqual({
      ...source,
      teamId: '{{session:1}}@fx',
      messageId: '{{message:3}}@fx',
      senderId: 'real-id@fx',
    });
    expect(scopeSource(source, undefined)).toBe(source);
  });
});
