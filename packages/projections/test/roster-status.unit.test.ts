import { type SessionLifecycle, initialSessionLifecycle } from '@teamlog/domain';
import { leadStatus, rosterStatus } from '@teamlog/projections';

const lifecycle = (status: SessionLifecycle['status'], extra: Partial<SessionLifecycle> = {}): SessionLifecycle => ({
  ...initialSessionLifecycle,
  status,
  ...extra,
});

describe('roster status', () => {
  it('shows provisioning and failed phases whatever the session does', () => {
    expect(rosterStatus('provisioning', lifecycle('running'))).toBe('provisioning');
    expect(rosterStatus('failed', lifecycle('idle'))).toBe('failed');
  });

  it.each([
    ['running', 'running'],
    ['idle', 'idle'],
    ['inactive', 'inactive'],
    ['not-started', 'provisioning'],
  ] as const)('shows an active member whose session is %s as %s', (status, shown) => {
    expect(rosterStatus('active', lifecycle(status))).toBe(shown);
  });

  it('shows a closed session as closed, or failed when it closed as failed', () => {
    expect(rosterStatus('active', lifecycle('closed', { closeReason: 'killed' }))).toBe('closed');
    expect(rosterStatus('active', lifecycle('closed', { closeReason: 'failed' }))).toBe('failed');
  });

  it('shows an active member whose log is not in the store as inactive', () => {
    expect(rosterStatus('active', undefined)).toBe('inactive');
    expect(leadStatus(undefined)).toBe('inactive');
  });
});
