/* The README's host loop, kept here so the test suite type-checks and runs it (host-loop.unit.test.ts). */
import type { SessionId } from '@teamlog/events';
import type { TeamLog } from '@teamlog/team';
import type { Model, ModelMessage } from './host-model';
// README:begin
import { handleToolCall, openToolSession, toolDefinitions } from '@teamlog/tools';

export async function runTurn(
  teamlog: TeamLog,
  sessionId: SessionId,
  model: Model,
  messages: ModelMessage[],
): Promise<void> {
  const session = await openToolSession(teamlog, sessionId); // role and team from the session's own stream
  const tools = toolDefinitions(session.handle.role); // name, description, JSON Schemas from the codecs
  let reply = await model.respond({ messages, tools });
  while (reply.toolCalls.length > 0) {
    for (const call of reply.toolCalls) {
      const result = await handleToolCall(session, { name: call.name, arguments: call.arguments });
      messages.push({ role: 'tool', toolCallId: call.id, content: result.text, isError: result.isError });
    }
    reply = await model.respond({ messages, tools });
  }
}
// README:end
