import { MessageId, leadOf } from '@teamlog/events';
import { MessageToSelf, relayedMessage, teamSender } from '@teamlog/domain';
import { TeamEdge } from './team-edge';
import { TeamEngine } from './team-engine';
import { UnauthorisedEdge } from './team-log-errors';

/**
 * Member to Lead: the Lead receives through its own session's steer path. The sender's name comes
 * from the roster, never from the caller.
 */
export class LeadSteerPath {
  constructor(private readonly engine: TeamEngine) {}

  async admit(edge: TeamEdge): Promise<MessageId> {
    const lead = leadOf(edge.teamId);
    if (edge.to !== lead) throw new UnauthorisedEdge(`the Lead steer path only reaches the Lead of team "${edge.teamId}"`);
    if (edge.from === lead) throw new MessageToSelf(lead);
    const sender = await this.engine.readTeam(edge.teamId, (state) => teamSender(state.team, edge.from));
    if (sender._tag === 'Left') throw sender.left;
    const message = relayedMessage(this.engine.ids.messageId(), sender.right, edge.content);
    return this.engine.admit(edge.teamId, lead, message, edge.signal);
  }
}
