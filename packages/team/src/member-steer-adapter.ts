import { MessageId, TeamId, leadOf } from '@teamlog/events';
import { MessageToSelf, TargetClosed, TargetOutsideTeam, relayedMessage, teamSender } from '@teamlog/domain';
import { TeamEdge } from './team-edge';
import { TeamEngine } from './team-engine';
import { UnauthorisedEdge } from './team-log-errors';

/**
 * The host-only capability to steer a member: it authorises exactly the Lead-to-member and
 * member-to-member edges of one team and keeps the original sender. Only the composition root
 * (create-team-log.ts) builds one; it is not exported from the package and TeamLog holds it in a
 * private field, so the public API can reach a member's inbox only through a session's `send`.
 */
export class MemberSteerAdapter {
  constructor(
    readonly teamId: TeamId,
    private readonly engine: TeamEngine,
  ) {}

  async admit(edge: TeamEdge): Promise<MessageId> {
    if (edge.teamId !== this.teamId) throw new UnauthorisedEdge(`this adapter steers members of team "${this.teamId}" only`);
    if (edge.to === leadOf(this.teamId)) throw new UnauthorisedEdge('the Lead receives through its own steer path');
    if (edge.from === edge.to) throw new MessageToSelf(edge.to);
    const sender = await this.engine.readTeam(this.teamId, (state) => {
      const target = state.team.members.get(edge.to)?.snapshot;
      if (target === undefined) throw new TargetOutsideTeam(edge.to, this.teamId);
      if (target.phase === 'failed') throw new TargetClosed(edge.to, 'failed');
      return teamSender(state.team, edge.from);
    });
    if (sender._tag === 'Left') throw sender.left;
    const message = relayedMessage(this.engine.ids.messageId(), sender.right, edge.content);
    return this.engine.admit(this.teamId, edge.to, message, edge.signal);
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
