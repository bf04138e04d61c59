import type { SessionId, TeamId } from '@teamlog/events';
import type { LeadSession } from '@teamlog/team';
import { type ToolSession, handleToolCall, teamTools } from '@teamlog/tools';

/* Bad arguments never reach the engine: a spy session records every call, and these calls must make none. */

const spySession = (): { readonly session: ToolSession; readonly calls: string[] } => {
  const calls: string[] = [];
  const record = (operation: string) => (): Promise<never> => {
    calls.push(operation);
    return Promise.reject(new Error(`${operation} reached the engine`));
  };
  const spy = {
    sessionId: 'spy-lead' as SessionId,
    teamId: 'spy-lead' as TeamId,
    name: 'lead',
    role: 'lead' as const,
    send: record('send'),
    roster: record('roster'),
    tasks: record('tasks'),
    createTask: record('createTask'),
    updateTask: record('updateTask'),
    spawnMember: record('spawnMember'),
    member: record('member'),
  };
  // Not a literal at the assignment: the spy may carry operations a newer LeadSession no longer has.
  const handle: LeadSession = spy;
  // An open session: the check that a writing tool makes first is not one of the session's operations.
  return { session: { handle, inbox: record('inbox'), closed: async () => undefined }, calls };
};

const badCalls: ReadonlyArray<readonly [string, unknown, string]> = [
  [
    'send_message',
    { target: 'reviewer', message: 'hi', sender: 'reviewer' },
    'refused: sender: unexpected key "sender" (not part of SendMessageArguments)',
  ],
  ['send_message', { target: 'reviewer', message: 'hi', delivery: 'quiet' }, 'unexpected key "delivery"'],
  ['send_message', { target: '', message: 'hi' }, 'target: expected NonEmptyString, got ""'],
  ['send_message', { target: 'reviewer' }, 'message: expected NonEmptyString, got nothing'],
  ['send_message', { target: 'reviewer', message: ['a', 'b'] }, 'message: expected NonEmptyString'],
  ['send_message', 'reviewer: hi', '(root)'],
  ['send_message', null, '(root)'],
  ['read_inbox', { after: '' }, 'after: expected MessageId'],
  ['list_members', { verbose: true }, 'unexpected key "verbose"'],
  ['spawn_member', { name: 'x' }, 'description: expected a string'],
  ['spawn_member', { name: 'n'.repeat(100_000), description: 'y' }, 'name: has 100000 characters; the limit is 64'],
  ['spawn_member', { name: '', description: 'y' }, 'name: must not be empty'],
  ['create_task', { subject: 's'.repeat(201) }, 'subject: has 201 characters; the limit is 200'],
  [
    'update_task',
    { taskId: 'task-1', expectedRevision: 1, writeScopes: ['w'.repeat(1_001)] },
    'writeScopes.0: has 1001 characters; the limit is 1000',
  ],
  ['spawn_member', { name: 'x', description: 'y', provider: 'other' }, 'unexpected key "provider"'],
  ['create_task', { subject: 'x', blockedBy: 'task-1' }, 'blockedBy: expected ReadonlyArray<TaskId>'],
  ['create_task', { subject: 'x', ownerId: 'someone' }, 'unexpected key "ownerId"'],
  ['claim_task', {}, 'taskId: expected TaskId, got nothing'],
  ['claim_task', { taskId: 'task-1', owner: 'reviewer' }, 'unexpected key "owner"'],
  [
    'update_task',
    { taskId: 'task-1', expectedRevision: '1', status: 'completed' },
    'expectedRevision: expected PositiveInteger, got "1"',
  ],
  ['update_task', { taskId: 'task-1', expectedRevision: 1, status: 'done' }, 'status: expected TaskStatus, got "done"'],
  ['list_tasks', { status: 'open' }, 'status: expected TaskStatus'],
];

describe('handleToolCall: arguments are decoded before anything runs', () => {
  it.each(badCalls)(
    'given %s with %j, then an InvalidToolArguments sentence comes back and the session saw no call',
    async (name, args, detail) => {
      const { session, calls } = spySession();
      const result = await handleToolCall(session, { name, arguments: args });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: 'InvalidToolArguments' } });
      expect(result.text).toContain(detail);
      expect(result.text).toMatch(new RegExp(`^The arguments of ${name} were refused: .*; nothing was done\\.$`, 's'));
      expect(calls).toEqual([]);
    },
  );

  it('given every tool, then each refuses an unknown key without calling the session', async () => {
    for (const tool of teamTools) {
      const { session, calls } = spySession();
      const result = await handleToolCall(session, { name: tool.name, arguments: { sender: 'someone' } });
      expect([tool.name, result.isError, calls]).toEqual([tool.name, true, []]);
    }
  });

  it('given an update naming no change, or an unknown tool, then the session saw no call', async () => {
    const { session, calls } = spySession();
    expect(
      (await handleToolCall(session, { name: 'update_task', arguments: { taskId: 'task-1', expectedRevision: 1 } }))
        .structuredContent,
    ).toMatchObject({ error: { code: 'NothingToUpdate' } });
    expect(
      (await handleToolCall(session, { name: 'task_send', arguments: { to: 'x' } })).structuredContent,
    ).toMatchObject({ error: { code: 'UnknownTool' } });
    expect(calls).toEqual([]);
  });

  it('given an error that is not a refusal (the store failed), then it is thrown to the host, not told to the model', async () => {
    const { session, calls } = spySession();
    await expect(handleToolCall(session, { name: 'list_tasks', arguments: {} })).rejects.toThrow(
      'roster reached the engine',
    );
    expect(calls).toEqual(['roster']);
  });
});
