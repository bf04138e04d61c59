import type { JsonObject, SessionId, TeamId } from '@teamlog/events';
import { handleToolCall } from './handle-tool-call';
import { ToolError } from './tool-errors';
import type { ToolSession } from './tool-session';

/** A read-only view of the session's team, served as an MCP resource; read through the tool that shows the same. */
export interface TeamResource {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly tool: 'read_inbox' | 'list_members' | 'list_tasks';
}

export const inboxUri = (sessionId: SessionId): string => `teamlog://sessions/${encodeURIComponent(sessionId)}/inbox`;
export const rosterUri = (teamId: TeamId): string => `teamlog://teams/${encodeURIComponent(teamId)}/roster`;
export const tasksUri = (teamId: TeamId): string => `teamlog://teams/${encodeURIComponent(teamId)}/tasks`;

export const teamResources = ({ handle }: ToolSession): readonly TeamResource[] => [
  {
    uri: inboxUri(handle.sessionId),
    name: 'inbox',
    description: `Messages the inbox of ${handle.name} accepted, oldest first, with their true sender.`,
    tool: 'read_inbox',
  },
  {
    uri: rosterUri(handle.teamId),
    name: 'roster',
    description: 'The team: you, the Lead, and every member with its phase.',
    tool: 'list_members',
  },
  {
    uri: tasksUri(handle.teamId),
    name: 'tasks',
    description: "The team's tasks (not deleted) with revision, status, owner and blockers.",
    tool: 'list_tasks',
  },
];

/** The resource's content: the structured result of its tool called without arguments. */
export const readTeamResource = async (session: ToolSession, uri: string): Promise<JsonObject> => {
  const resource = teamResources(session).find((candidate) => candidate.uri === uri);
  if (resource === undefined)
    throw new ToolError({ code: 'ResourceUnavailable', uri, detail: 'not a resource of this session' });
  const result = await handleToolCall(session, { name: resource.tool, arguments: {} });
  if (result.isError) throw new ToolError({ code: 'ResourceUnavailable', uri, detail: result.text });
  return result.structuredContent;
};
