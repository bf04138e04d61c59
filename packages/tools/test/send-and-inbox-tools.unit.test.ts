import { InMemoryEventStore } from '@teamlog/store';
import { maxMessageBytes } from '@teamlog/team';
import { type ToolResult, handleToolCall } from '@teamlog/tools';
import { memberOf, toolTeam } from './tool-team';

const failure = (result: ToolResult) =>
  result.isError
    ? { code: result.structuredContent.error.code, text: result.text }
    : { code: 'none', text: result.text };

/** Every event of the store, to show that a refused call wrote nothing. */
const collectAll = async (team: { readonly store: { readAll: () => AsyncIterable<unknown> } }): Promise<unknown[]> => {
  const events: unknown[] = [];
  for await (const event of team.store.readAll()) events.push(event);
  return events;
};

/** One sentence: no line break, one final stop. */
const oneSentence = (text: string): boolean => !text.includes('\n') && /[.]$/.test(text) && !/[.!?]\s+[A-Z]/.test(text);

describe('send_message through handleToolCall, on the real engine', () => {
  it("given the Lead, when it sends to a member by name, then the result is the id the member's inbox accepted, attributed to the Lead", async () => {
    const team = await toolTeam(['reviewer']);
    const result = await handleToolCall(team.lead, {
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'Review the importer.' },
    });
    expect(result.isError).toBe(false);
    const inbox = await memberOf(team, 'reviewer').inbox();
    expect(result.structuredContent).toEqual({ messageId: inbox[0]?.id, target: 'reviewer' });
    expect(result.text).toBe(
      `Accepted by the inbox of "reviewer" as message ${inbox[0]?.id}; it reaches them at their next step or turn.`,
    );
    expect(inbox[0]?.source).toEqual({
      kind: 'team-relay',
      form: 'relay',
      senderSessionId: team.lead.handle.sessionId,
      senderName: 'lead',
    });
  });

  it('given a member, when it sends to "lead" and to a sibling, then each target\'s inbox records the member as the sender', async () => {
    const team = await toolTeam(['researcher', 'implementer']);
    const researcher = memberOf(team, 'researcher');
    await handleToolCall(researcher, { name: 'send_message', arguments: { target: 'lead', message: 'Found it.' } });
    await handleToolCall(researcher, {
      name: 'send_message',
      arguments: { target: 'implementer', message: 'Use the v2 codec.' },
    });
    const senders = async (inbox: () => Promise<readonly { source: unknown }[]>) =>
      (await inbox()).map((entry) => entry.source);
    const expected = {
      kind: 'team-relay',
      form: 'relay',
      senderSessionId: researcher.handle.sessionId,
      senderName: 'researcher',
    };
    expect(await senders(team.lead.inbox)).toEqual([expected]);
    expect(await senders(memberOf(team, 'implementer').inbox)).toEqual([expected]);
  });

  it('given an unknown target, then the result is one sentence naming it, and nothing is written', async () => {
    const team = await toolTeam(['reviewer']);
    const result = await handleToolCall(team.lead, {
      name: 'send_message',
      arguments: { target: 'ghost', message: 'hello?' },
    });
    expect(failure(result)).toEqual({
      code: 'UnknownTarget',
      text: 'There is no team member or session "ghost"; list_members shows who is on the team.',
    });
    expect(oneSentence(result.text)).toBe(true);
    expect(await memberOf(team, 'reviewer').inbox()).toEqual([]);
  });

  it('given the sender itself as target, then it is refused as a message to self', async () => {
    const team = await toolTeam(['reviewer']);
    const result = await handleToolCall(memberOf(team, 'reviewer'), {
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'note to self' },
    });
    expect(failure(result)).toEqual({
      code: 'MessageToSelf',
      text: 'You cannot send a message to yourself; choose a teammate as the target.',
    });
    expect(await memberOf(team, 'reviewer').inbox()).toEqual([]);
  });

  it('given a killed target, then the send is refused with the reason, and its inbox stays empty', async () => {
    const team = await toolTeam(['reviewer']);
    const reviewer = memberOf(team, 'reviewer');
    await team.teamlog.runtime(reviewer.handle.sessionId).close('killed');
    const result = await handleToolCall(team.lead, {
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'still there?' },
    });
    expect(failure(result)).toEqual({
      code: 'TargetClosed',
      text: `The target (session ${reviewer.handle.sessionId}) is closed (killed) and accepts no messages; nothing was sent.`,
    });
    expect(await reviewer.inbox()).toEqual([]);
  });

  it('given a session of another team as target, then it is refused as outside the team', async () => {
    const store = new InMemoryEventStore();
    const team = await toolTeam(['reviewer'], store, 'a');
    const other = await toolTeam(['stranger'], store, 'b');
    const stranger = memberOf(other, 'stranger').handle.sessionId;
    const result = await handleToolCall(team.lead, {
      name: 'send_message',
      arguments: { target: stranger, message: 'psst' },
    });
    expect(failure(result)).toEqual({
      code: 'TargetOutsideTeam',
      text: `Session "${stranger}" is not on your team; you can message only your team's Lead and members.`,
    });
  });

  it('given a closed sender, then its send is refused and nothing is attributed to it', async () => {
    const team = await toolTeam(['reviewer']);
    const reviewer = memberOf(team, 'reviewer');
    await team.teamlog.runtime(reviewer.handle.sessionId).close('cancelled');
    const result = await handleToolCall(reviewer, {
      name: 'send_message',
      arguments: { target: 'lead', message: 'one last thing' },
    });
    expect(failure(result)).toEqual({
      code: 'SessionClosedForWrites',
      text: 'Your session is closed (cancelled), so send_message changes nothing; the tools that only read still work.',
    });
    expect(await team.lead.inbox()).toEqual([]);
  });

  it('given a killed member, then every tool that writes is refused with one sentence and nothing is written, while the reading tools still answer', async () => {
    const team = await toolTeam(['reviewer']);
    const reviewer = memberOf(team, 'reviewer');
    await team.teamlog.runtime(reviewer.handle.sessionId).close('killed');
    const before = await collectAll(team);
    const writes = [
      { name: 'create_task', arguments: { subject: 'after the kill' } },
      { name: 'claim_task', arguments: { taskId: 'task-1' } },
      { name: 'update_task', arguments: { taskId: 'task-1', expectedRevision: 1, status: 'completed' } },
      { name: 'send_message', arguments: { target: 'lead', message: 'still here' } },
    ];
    for (const call of writes) {
      const result = await handleToolCall(reviewer, call);
      expect(failure(result)).toEqual({
        code: 'SessionClosedForWrites',
        text: `Your session is closed (killed), so ${call.name} changes nothing; the tools that only read still work.`,
      });
      expect(oneSentence(result.text)).toBe(true);
    }
    expect(await collectAll(team)).toEqual(before);
    expect((await handleToolCall(reviewer, { name: 'list_tasks', arguments: {} })).isError).toBe(false);
    expect((await handleToolCall(reviewer, { name: 'read_inbox', arguments: {} })).isError).toBe(false);
  });

  it("given a message over the size limit, then the engine's refusal comes back as a sentence", async () => {
    const team = await toolTeam(['reviewer']);
    const result = await handleToolCall(team.lead, {
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'x'.repeat(maxMessageBytes + 1) },
    });
    expect(failure(result).code).toBe('InvalidSendRequest');
    expect(result.text).toMatch(
      /^The message was refused: message is \d+ bytes of JSON; the limit is 1048576; nothing was sent\.$/,
    );
  });

  it('given a disposed TeamLog, then a call is refused with a sentence, not thrown', async () => {
    const team = await toolTeam(['reviewer']);
    await team.teamlog.dispose();
    const result = await handleToolCall(team.lead, {
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'late' },
    });
    expect(failure(result)).toEqual({
      code: 'TeamLogDisposed',
      text: 'The team log is shutting down; nothing was done.',
    });
  });
});

describe('read_inbox through handleToolCall', () => {
  it('given messages from the Lead and a sibling, then they are listed oldest first with their true sender and text', async () => {
    const team = await toolTeam(['researcher', 'reviewer']);
    await handleToolCall(team.lead, { name: 'send_message', arguments: { target: 'reviewer', message: 'Review it.' } });
    await handleToolCall(memberOf(team, 'researcher'), {
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'Look at line 4.' },
    });
    const result = await handleToolCall(memberOf(team, 'reviewer'), { name: 'read_inbox', arguments: {} });
    const ids = (await memberOf(team, 'reviewer').inbox()).map((entry) => entry.id);
    expect(result.structuredContent).toEqual({
      messages: [
        {
          id: ids[0],
          from: 'lead',
          fromSessionId: team.lead.handle.sessionId,
          status: 'pending',
          text: 'Team message from lead:\nReview it.',
        },
        {
          id: ids[1],
          from: 'researcher',
          fromSessionId: memberOf(team, 'researcher').handle.sessionId,
          status: 'pending',
          text: 'Team message from researcher:\nLook at line 4.',
        },
      ],
    });
    expect(result.text).toContain(
      `- ${ids[1]} from researcher (pending):\nTeam message from researcher:\nLook at line 4.`,
    );
  });

  it('given "after" a message id, then only later messages are listed; an id the inbox never held is refused', async () => {
    const team = await toolTeam(['reviewer']);
    for (const message of ['one', 'two', 'three'])
      await handleToolCall(team.lead, { name: 'send_message', arguments: { target: 'reviewer', message } });
    const reviewer = memberOf(team, 'reviewer');
    const [first] = await reviewer.inbox();
    const later = await handleToolCall(reviewer, { name: 'read_inbox', arguments: { after: first?.id } });
    expect(
      (later.structuredContent as { messages: { text: string }[] }).messages.map((message) => message.text),
    ).toEqual(['Team message from lead:\ntwo', 'Team message from lead:\nthree']);
    const unknown = await handleToolCall(reviewer, { name: 'read_inbox', arguments: { after: 'no-such-id' } });
    expect(failure(unknown)).toEqual({
      code: 'UnknownInboxMessage',
      text: 'Your inbox holds no message "no-such-id"; read it without "after" to see every message.',
    });
  });

  it('given an empty inbox, then it says so', async () => {
    const team = await toolTeam(['reviewer']);
    expect(await handleToolCall(memberOf(team, 'reviewer'), { name: 'read_inbox' })).toEqual({
      isError: false,
      text: 'No messages.',
      structuredContent: { messages: [] },
    });
  });
});
