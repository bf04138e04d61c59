import { MessageId, RelayedMessage, leadOf } from '@teamlog/events';
import { ListedRoute, TeamEngine } from './team-engine';
import { UnauthorisedEdge } from './team-log-errors';

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
      return Promise.reject(new UnauthorisedEdge(`the Lead steer path only reaches the Lead of team "${route.teamId}"`));
    }
    return this.engine.admit(route.teamId, lead, message, signal);
  }
}
