import { refusalSentence } from './refusal-sentence';
import type { TeamTool } from './team-tool';
import { teamTools, teamToolset } from './team-toolset';
import { ToolError } from './tool-errors';
import { type ToolResult, toolFailure } from './tool-result';
import type { ToolSession } from './tool-session';

/** A model's tool call: the tool's name and its arguments as the model wrote them. */
export interface ToolCall {
  readonly name: string;
  readonly arguments?: unknown;
}

const findTool = (session: ToolSession, name: string): TeamTool => {
  const role = session.handle.role;
  const toolset = teamToolset(role);
  const tool = toolset.find((candidate) => candidate.name === name);
  if (tool !== undefined) return tool;
  if (teamTools.some((candidate) => candidate.name === name))
    throw new ToolError({ code: 'ToolNotForRole', toolName: name, role });
  throw new ToolError({ code: 'UnknownTool', toolName: name, available: toolset.map((candidate) => candidate.name) });
};

/**
 * Run one tool call as the session's own handle. A refusal (a TeamLogError or ToolError whose code has a sentence) becomes an error result
 * with one sentence; arguments are decoded by the tool's codec before anything reaches the engine.
 * Errors that are not refusals (the store failed, a bug) are thrown to the host.
 */
export const handleToolCall = async (session: ToolSession, call: ToolCall): Promise<ToolResult> => {
  try {
    return await findTool(session, call.name).invoke(session, call.arguments);
  } catch (error) {
    const refusal = refusalSentence(error);
    if (refusal === undefined) throw error;
    return toolFailure(refusal.code, refusal.sentence);
  }
};
