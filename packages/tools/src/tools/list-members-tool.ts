import * as t from 'io-ts';
import { SessionId, leadOf } from '@teamlog/events';
import { leadName } from '@teamlog/domain';
import { MemberView, SelfView, memberView } from '../member-view';
import { strictObjectType } from '../strict-object-type';
import { defineTool } from '../team-tool';

export const ListMembersArguments = strictObjectType({}, {}, 'ListMembersArguments');

export const ListMembersResult = strictObjectType(
  {
    you: SelfView,
    lead: strictObjectType({ name: t.string, sessionId: SessionId }, {}, 'LeadView'),
    members: t.readonlyArray(MemberView),
  },
  {},
  'ListMembersResult',
);

const memberLine = (member: MemberView): string =>
  `- ${member.name} (${member.phase}, session ${member.sessionId}): ${member.description}${member.error === undefined ? '' : ` [${member.error}]`}`;

export const listMembersTool = defineTool({
  name: 'list_members',
  description:
    'List your team: you, the Lead, and every member with its phase (provisioning, active, failed) and description.',
  roles: ['lead', 'member'],
  writes: false,
  input: ListMembersArguments,
  output: ListMembersResult,
  run: async ({ handle }) => {
    const members = (await handle.roster()).map(memberView);
    const lead = { name: leadName, sessionId: leadOf(handle.teamId) };
    const you = { name: handle.name, sessionId: handle.sessionId, role: handle.role };
    const text = [
      `You are ${you.name} (${you.role}, session ${you.sessionId}). The Lead is "lead" (session ${lead.sessionId}).`,
      members.length === 0 ? 'The team has no members yet.' : `Members:\n${members.map(memberLine).join('\n')}`,
    ].join('\n');
    return { text, structured: { you, lead, members } };
  },
});
