import type { SessionId } from '@teamlog/events';
import { handleToolCall } from '@teamlog/tools';
import { memberOf, toolTeam } from './tool-team';

describe('a tool session is sealed', () => {
  it("given a member's tool session, when a caller swaps its handle or its handle's identity, then it throws and a tool call still sends as the member", async () => {
    const team = await toolTeam(['reviewer', 'writer']);
    const reviewer = memberOf(team, 'reviewer');
    const writer = memberOf(team, 'writer');
    expect(() => {
      (reviewer as { handle: unknown }).handle = team.lead.handle;
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(reviewer, 'handle', { value: team.lead.handle })).toThrow(TypeError);
    expect(() => {
      (reviewer.handle as { sessionId: SessionId }).sessionId = team.lead.handle.sessionId;
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(reviewer.handle, 'sessionId', { value: team.lead.handle.sessionId })).toThrow(
      TypeError,
    );
    await handleToolCall(reviewer, { name: 'send_message', arguments: { target: 'writer', message: 'Looks good.' } });
    const [entry] = await writer.inbox();
    expect(entry?.source).toMatchObject({ senderSessionId: reviewer.handle.sessionId, senderName: 'reviewer' });
  });
});
