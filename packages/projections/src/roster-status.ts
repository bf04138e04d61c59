import type { MemberPhase } from '@teamlog/events';
import type { SessionLifecycle } from '@teamlog/domain';

/** A member as the roster shows it: its Team phase combined with its own session's lifecycle. */
export type RosterStatus = 'provisioning' | 'running' | 'idle' | 'inactive' | 'failed' | 'closed';

/**
 * provisioning/failed phases win; an active member shows its session's state. A member whose log
 * is not in the store has no live session teamlog knows of: inactive. A session teamlog created but
 * has not started is still provisioning; one closed as failed is failed.
 */
export const rosterStatus = (phase: MemberPhase, lifecycle: SessionLifecycle | undefined): RosterStatus => {
  if (phase !== 'active') return phase;
  if (lifecycle === undefined) return 'inactive';
  switch (lifecycle.status) {
    case 'not-started':
      return 'provisioning';
    case 'running':
    case 'idle':
    case 'inactive':
      return lifecycle.status;
    case 'closed':
      return lifecycle.closeReason === 'failed' ? 'failed' : 'closed';
    default: {
      const unreachable: never = lifecycle.status;
      return unreachable;
    }
  }
};

/** The Lead has no phase: its status is its session's. */
export const leadStatus = (lifecycle: SessionLifecycle | undefined): RosterStatus => rosterStatus('active', lifecycle);
