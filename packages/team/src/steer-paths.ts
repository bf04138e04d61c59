import { type MessageId, type RelayedMessage, type TeamId, leadOf } from '@teamlog/events';
import type { ListedRoute, TeamEngine } from './team-engine';
import { TeamLogError } from './team-log-errors';

/* The two capabilities that may reach an inbox: the Lead's steer path and the host's member adapter. */

/**
 * The capability to reach a Lead: the Lead receives through its own session's steer path. It
 * admits routed messages whose target is the Lead of their team, and nothing else; the route has
 * decided everything about sender and target already.
 */
export class LeadSteerPath {
  constructor(private readonly engine: TeamEngine) {}

  admit(route: ListedRoute, message: RelayedMessage, signal: AbortSignal | undefined): Promise<MessageId> {
    const lead = leadOf(route.teamId);
    if (route.target.kind !== 'lead' || route.target.sessionId !== lead) {
      return Promise.reject(
        new TeamLogError({
          code: 'UnauthorisedEdge',
          detail: `the Lead steer path only reaches the Lead of team "${route.teamId}"`,
        }),
      );
    }
    return this.engine.admit(route.teamId, lead, message, signal);
  }
}

/**
 * The host-only capability to steer a member: it admits routed messages into the inboxes of its
 * own team's members, and nothing else. Only the composition root (create-team-log.ts) builds
 * one; it is not exported from the package and TeamLog holds it in a private field, so the public
 * API can reach a member's inbox only through a session's `send`.
 */
export class MemberSteerAdapter {
  constructor(
    readonly teamId: TeamId,
    private readonly engine: TeamEngine,
  ) {}

  admit(route: ListedRoute, message: RelayedMessage, signal: AbortSignal | undefined): Promise<MessageId> {
    if (route.teamId !== this.teamId)
      return Promise.reject(
        new TeamLogError({
          code: 'UnauthorisedEdge',
          detail: `this adapter steers members of team "${this.teamId}" only`,
        }),
      );
    if (route.target.kind !== 'member')
      return Promise.reject(
        new TeamLogError({ code: 'UnauthorisedEdge', detail: 'the Lead receives through its own steer path' }),
      );
    return this.engine.admit(this.teamId, route.target.sessionId, message, signal);
  }
}

/** One adapter per team, made on first use; the composition root keeps the table. */
export class MemberSteerAdapters {
  private readonly byTeam = new Map<TeamId, MemberSteerAdapter>();

  constructor(private readonly engine: TeamEngine) {}

  forTeam(teamId: TeamId): MemberSteerAdapter {
    const existing = this.byTeam.get(teamId);
    if (existing !== undefined) return existing;
    const adapter = new MemberSteerAdapter(teamId, this.engine);
    this.byTeam.set(teamId, adapter);
    return adapter;
  }
}
