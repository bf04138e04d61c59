import * as t from 'io-ts';
import { MemberPhase, SessionId, SessionRole, type TeamMemberSnapshot } from '@teamlog/events';
import { strictObjectType } from './strict-object-type';

/** A roster entry as a model reads it. */
export const MemberView = strictObjectType(
  { name: t.string, sessionId: SessionId, description: t.string, provider: t.string, phase: MemberPhase },
  { error: t.string },
  'MemberView',
);
export type MemberView = t.TypeOf<typeof MemberView>;

/** Who is calling: the session the tools act as. */
export const SelfView = strictObjectType({ name: t.string, sessionId: SessionId, role: SessionRole }, {}, 'SelfView');
export type SelfView = t.TypeOf<typeof SelfView>;

export const memberView = (member: TeamMemberSnapshot): MemberView => ({
  name: member.name,
  sessionId: member.id,
  description: member.description,
  provider: member.provider,
  phase: member.phase,
  ...(member.error === undefined ? {} : { error: member.error }),
});
