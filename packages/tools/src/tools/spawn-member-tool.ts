import * as t from 'io-ts';
import { SessionId } from '@teamlog/events';
import { MemberDescriptionText, MemberNameText } from '../bounded-text';
import { described } from '../described-type';
import { strictObjectType } from '../strict-object-type';
import { defineTool } from '../team-tool';
import { ToolError } from '../tool-errors';

export const SpawnMemberArguments = strictObjectType(
  {
    name: described(
      MemberNameText,
      'The new member\'s name: how everyone addresses it. Names are never reused; "lead" is the Lead\'s.',
    ),
    description: described(MemberDescriptionText, 'What the member is for, as the roster shows it.'),
  },
  {},
  'SpawnMemberArguments',
);

export const SpawnMemberResult = strictObjectType({ name: t.string, sessionId: SessionId }, {}, 'SpawnMemberResult');

export const spawnMemberTool = defineTool({
  name: 'spawn_member',
  description:
    'Add a member to your team (Lead only): it goes on the roster, gets its own session, and can be messaged by name.',
  roles: ['lead'],
  writes: true,
  input: SpawnMemberArguments,
  output: SpawnMemberResult,
  run: async ({ handle }, { name, description }) => {
    if (handle.role !== 'lead')
      throw new ToolError({ code: 'ToolNotForRole', toolName: 'spawn_member', role: handle.role }); // the toolset never routes it there
    // Only the spawned member's identity is used: its handle belongs to the host that runs it.
    const { sessionId } = await handle.spawnMember({ name, description });
    return {
      text: `Spawned "${name}" (session ${sessionId}); it is on the roster and can be messaged by name.`,
      structured: { name, sessionId },
    };
  },
});
