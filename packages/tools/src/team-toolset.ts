import type { SessionRole } from '@teamlog/events';
import type { TeamTool } from './team-tool';
import { claimTaskTool } from './tools/claim-task-tool';
import { createTaskTool } from './tools/create-task-tool';
import { listMembersTool } from './tools/list-members-tool';
import { listTasksTool } from './tools/list-tasks-tool';
import { readInboxTool } from './tools/read-inbox-tool';
import { sendMessageTool } from './tools/send-message-tool';
import { spawnMemberTool } from './tools/spawn-member-tool';
import { updateTaskTool } from './tools/update-task-tool';

/** Every Team tool, in the order a toolset lists them. */
export const teamTools: readonly TeamTool[] = [
  sendMessageTool,
  readInboxTool,
  listMembersTool,
  spawnMemberTool,
  listTasksTool,
  createTaskTool,
  claimTaskTool,
  updateTaskTool,
];

/** The tools a session of this role has: the Lead's toolset also spawns members. */
export const teamToolset = (role: SessionRole): readonly TeamTool[] =>
  teamTools.filter((tool) => tool.roles.includes(role));
