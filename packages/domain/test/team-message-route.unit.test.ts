import { isLeft, isRight } from 'fp-ts/Either';
import { type SessionId, type TeamId, streamEvent } from '@teamlog/events';
import {
  type TeamState,
  evolveTeam,
  initialTeamState,
  initialSenderClosure,
  refuseUnlisted,
  routeTeamMessage,
} from '@teamlog/domain';

const teamId = 'lead-1' as TeamId;
const lead = 'lead-1' as SessionId;
let seq = 0;
const member = (id: string, name: string, phase: string) => ({
  type: 'team/member',
  seq: (seq += 1),
  data: { version: 2, teamId, member: { id, name, description: 'd', provider: 'spawn', context: 'fresh', phase } },
});
const team: TeamState = [
  member('m-a', 'researcher', 'provisioning'),
  member('m-a', 'researcher', 'active'),
  member('m-b', 'implementer', 'provisioning'),
  member('m-b', 'implementer', 'active'),
  member('m-c', 'broken', 'provisioning'),
  member('m-c', 'broken', 'failed'),
  member('m-d', 'pending', 'provisioning'),
].reduce((state, event) => evolveTeam(state, streamEvent(event.type, event.seq, event.data)), initialTeamState(teamId));

const route = (sender: string, address: string) =>
  routeTeamMessage(team, initialSenderClosure, sender as SessionId, address);
const target = (result: ReturnType<typeof route>) => (isRight(result) ? result.right.target : undefined);
const rejection = (result: ReturnType<typeof route>) => (isLeft(result) ? result.left : undefined);

describe('team message route', () => {
  it('given the Lead, when it addresses a member by name or by session id, then both resolve to the member', () => {
    expect(target(route(lead, 'researcher'))).toEqual({ kind: 'member', sessionId: 'm-a', name: 'researcher' });
    expect(target(route(lead, 'm-a'))).toEqual({ kind: 'member', sessionId: 'm-a', name: 'researcher' });
  });

  it('given a member, when it addresses "lead" or the Lead id, then the Lead is the target and the sender keeps its own name', () => {
    const routed = route('m-b', 'lead');
    expect(isRight(routed) && routed.right).toMatchObject({
      sender: { sessionId: 'm-b', name: 'implementer' },
      target: { kind: 'lead', sessionId: lead },
    });
    expect(target(route('m-b', lead))).toMatchObject({ kind: 'lead' });
  });

  it('given a member, when it addresses a sibling, then the sibling is the target', () => {
    expect(target(route('m-a', 'implementer'))).toMatchObject({ kind: 'member', sessionId: 'm-b' });
  });

  it('given a sender that is not on the roster (or never became active), when it sends, then SenderOutsideTeam', () => {
    expect(rejection(route('stranger', 'researcher'))).toMatchObject({ code: 'SenderOutsideTeam' });
    expect(rejection(route('m-d', 'researcher'))).toMatchObject({ code: 'SenderOutsideTeam' });
  });

  it('given a member, when it addresses itself by name, then MessageToSelf; the Lead addressing "lead" likewise', () => {
    expect(rejection(route('m-a', 'researcher'))).toMatchObject({ code: 'MessageToSelf' });
    expect(rejection(route(lead, 'lead'))).toMatchObject({ code: 'MessageToSelf' });
  });

  it('given a member whose spawn failed, when it is addressed, then TargetClosed (failed)', () => {
    expect(rejection(route(lead, 'broken'))).toEqual({
      code: 'TargetClosed',
      target: 'm-c' as SessionId,
      reason: 'failed',
    });
  });

  it('given an address that is not on the roster, when routed, then it is unlisted and refused as unknown or outside the team', () => {
    expect(target(route(lead, 'nobody'))).toEqual({ kind: 'unlisted', address: 'nobody' });
    expect(refuseUnlisted(teamId, 'nobody', undefined)).toMatchObject({ code: 'UnknownTarget' });
    expect(refuseUnlisted(teamId, 'other-member', 'other-lead' as TeamId)).toMatchObject({ code: 'TargetOutsideTeam' });
  });
});
