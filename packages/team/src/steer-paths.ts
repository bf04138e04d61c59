import { type SessionId, type TeamId, leadOf } from '@teamlog/events';
import type { TeamMessageRoute } from '@teamlog/domain';
import { TeamLogError } from './team-log-errors';

/** A routed send whose target is on the roster: the Lead, or a member. */
export type ListedRoute = TeamMessageRoute & { readonly target: { readonly kind: 'lead' | 'member' } };

/**
 * A capability to reach inboxes: for a route it may carry, the session whose inbox the send writes;
 * for any other, UnauthorisedEdge. The send path (send.ts) writes an acceptance only into the
 * session its route's steer path names.
 */
export type SteerPath = (route: ListedRoute) => SessionId;

/** The paths a send is handed by the composition root: the Lead's own, and the host's member adapter of each team. */
export interface SteerPaths {
  readonly lead: SteerPath;
  readonly members: (teamId: TeamId) => SteerPath;
}

/**
 * The Lead receives through its own session's steer path: routes whose target is the Lead of their
 * team, and nothing else; the route has decided everything about sender and target already.
 */
export const leadSteerPath: SteerPath = (route) => {
  const lead = leadOf(route.teamId);
  if (route.target.kind !== 'lead' || route.target.sessionId !== lead)
    throw new TeamLogError({
      code: 'UnauthorisedEdge',
      detail: `the Lead steer path only reaches the Lead of team "${route.teamId}"`,
    });
  return lead;
};

/**
 * The host-only capability to steer a member: routes into the inboxes of its own team's members,
 * and nothing else. Only the composition root (create-team-log.ts) builds one; it is not exported
 * from the package and handles hold it in a private field, so the public API reaches a member's
 * inbox only through a session's `send`.
 */
export const memberSteerAdapter =
  (teamId: TeamId): SteerPath =>
  (route) => {
    if (route.teamId !== teamId)
      throw new TeamLogError({
        code: 'UnauthorisedEdge',
        detail: `this adapter steers members of team "${teamId}" only`,
      });
    if (route.target.kind !== 'member')
      throw new TeamLogError({ code: 'UnauthorisedEdge', detail: 'the Lead receives through its own steer path' });
    return route.target.sessionId;
  };

/** The composition root's table: the Lead's path, and one member adapter per team, made on first use. */
export const steerPaths = (): SteerPaths => {
  const byTeam = new Map<TeamId, SteerPath>();
  return {
    lead: leadSteerPath,
    members: (teamId) => {
      let adapter = byTeam.get(teamId);
      if (adapter === undefined) byTeam.set(teamId, (adapter = memberSteerAdapter(teamId)));
      return adapter;
    },
  };
};
