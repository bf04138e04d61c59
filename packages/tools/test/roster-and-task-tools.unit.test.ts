import { handleToolCall, type ToolResult, type ToolSession } from '@teamlog/tools';
import { type ToolTeam, memberOf, toolTeam } from './tool-team';

const failure = (result: ToolResult) =>
  result.isError
    ? { code: result.structuredContent.error.code, text: result.text }
    : { code: 'none', text: result.text };
const call = (session: ToolSession, name: string, args: Record<string, unknown> = {}) =>
  handleToolCall(session, { name, arguments: args });
const taskOf = (result: ToolResult): Record<string, unknown> =>
  (result.structuredContent as { task: Record<string, unknown> }).task;

const withTask = async (team: ToolTeam, args: Record<string, unknown> = { subject: 'Write the importer' }) =>
  taskOf(await call(team.lead, 'create_task', args));

describe('list_members and spawn_member', () => {
  it('given a team, then list_members says who the caller is, who the Lead is, and every member with its phase', async () => {
    const team = await toolTeam(['researcher']);
    const researcher = memberOf(team, 'researcher');
    const result = await call(researcher, 'list_members');
    expect(result.structuredContent).toEqual({
      you: { name: 'researcher', sessionId: researcher.handle.sessionId, role: 'member' },
      lead: { name: 'lead', sessionId: team.lead.handle.sessionId },
      members: [
        {
          name: 'researcher',
          sessionId: researcher.handle.sessionId,
          description: 'the researcher',
          provider: 'spawn',
          phase: 'active',
        },
      ],
    });
    expect(result.text).toContain(`- researcher (active, session ${researcher.handle.sessionId}): the researcher`);
  });

  it('given the Lead, when it spawns a member, then the member is active on the roster and can be messaged by name', async () => {
    const team = await toolTeam([]);
    const result = await call(team.lead, 'spawn_member', { name: 'reviewer', description: 'reviews' });
    expect(result.isError).toBe(false);
    const { sessionId } = result.structuredContent as { sessionId: string };
    expect((await team.lead.handle.roster()).map((member) => [member.name, member.id, member.phase])).toEqual([
      ['reviewer', sessionId, 'active'],
    ]);
    expect((await call(team.lead, 'send_message', { target: 'reviewer', message: 'welcome' })).isError).toBe(false);
  });

  it('given a name already on the roster or "lead", then the spawn is refused with the team\'s rule', async () => {
    const team = await toolTeam(['reviewer']);
    expect(failure(await call(team.lead, 'spawn_member', { name: 'reviewer', description: 'again' }))).toEqual({
      code: 'TeamRuleViolation',
      text: 'The team refused the change: member name "reviewer" is reused by another member.',
    });
    expect(failure(await call(team.lead, 'spawn_member', { name: 'lead', description: 'a second lead' }))).toEqual({
      code: 'InvalidMemberName',
      text: 'Member name "lead" addresses the Lead; choose another name.',
    });
  });

  it('given a member, when it calls spawn_member, then it is told that only the Lead spawns, and the roster is unchanged', async () => {
    const team = await toolTeam(['researcher']);
    const result = await call(memberOf(team, 'researcher'), 'spawn_member', { name: 'helper', description: 'helps' });
    expect(failure(result)).toEqual({
      code: 'ToolNotForRole',
      text: "As a member you do not have the tool spawn_member; it is the Lead's.",
    });
    expect((await team.lead.handle.roster()).map((member) => member.name)).toEqual(['researcher']);
  });

  it("given a name no tool has, then the result lists the caller's tools", async () => {
    const team = await toolTeam(['researcher']);
    expect(failure(await call(memberOf(team, 'researcher'), 'followup_task', { target: 'lead' }))).toEqual({
      code: 'UnknownTool',
      text: 'There is no tool "followup_task"; your tools are send_message, read_inbox, list_members, list_tasks, create_task, claim_task, update_task.',
    });
  });
});

describe('create_task and list_tasks', () => {
  it("given a subject, an owner by name and a blocker, then the task is created pending at revision 1 with the owner's id", async () => {
    const team = await toolTeam(['researcher']);
    const first = await withTask(team);
    const result = await call(team.lead, 'create_task', {
      subject: 'Review it',
      description: 'all of it',
      owner: 'researcher',
      blockedBy: [first.id],
      writeScopes: ['docs/'],
    });
    expect(taskOf(result)).toEqual({
      id: 'task-2',
      revision: 1,
      subject: 'Review it',
      description: 'all of it',
      status: 'pending',
      blockedBy: ['task-1'],
      writeScopes: ['docs/'],
      owner: 'researcher',
      ownerId: memberOf(team, 'researcher').handle.sessionId,
    });
    expect(result.text).toBe('Created task-2 r1 pending (owner researcher) Review it [blocked by task-1].');
  });

  it('given an owner nobody on the team answers to, then nothing is created', async () => {
    const team = await toolTeam(['researcher']);
    expect(failure(await call(team.lead, 'create_task', { subject: 'x', owner: 'ghost' }))).toEqual({
      code: 'UnknownMember',
      text: 'There is no team member "ghost"; use a member\'s name, a session id, or "lead".',
    });
    expect(await team.lead.handle.tasks()).toEqual([]);
  });

  it("given a blocker that does not exist, then the team's rule refuses the task", async () => {
    const team = await toolTeam([]);
    const result = await call(team.lead, 'create_task', { subject: 'x', blockedBy: ['task-9'] });
    expect(failure(result).code).toBe('TeamRuleViolation');
    expect(result.text).toMatch(/^The team refused the change: .*task-9.*\.$/);
  });

  it('given tasks of every status, then list_tasks leaves out deleted ones unless asked for them by status', async () => {
    const team = await toolTeam([]);
    await withTask(team, { subject: 'keep' });
    await withTask(team, { subject: 'drop' });
    await call(team.lead, 'update_task', { taskId: 'task-2', expectedRevision: 1, status: 'deleted' });
    const all = await call(team.lead, 'list_tasks');
    expect((all.structuredContent as { tasks: { subject: string }[] }).tasks.map((task) => task.subject)).toEqual([
      'keep',
    ]);
    expect(all.text).toBe('task-1 r1 pending (no owner) keep');
    const deleted = await call(team.lead, 'list_tasks', { status: 'deleted' });
    expect((deleted.structuredContent as { tasks: { subject: string }[] }).tasks.map((task) => task.subject)).toEqual([
      'drop',
    ]);
    expect((await call(team.lead, 'list_tasks', { status: 'completed' })).text).toBe('No tasks.');
  });
});

describe('claim_task', () => {
  it('given a pending task, when a member claims it, then the member owns it, in progress, at the next revision', async () => {
    const team = await toolTeam(['researcher']);
    await withTask(team);
    const researcher = memberOf(team, 'researcher');
    const result = await call(researcher, 'claim_task', { taskId: 'task-1' });
    expect(taskOf(result)).toMatchObject({
      id: 'task-1',
      revision: 2,
      status: 'in_progress',
      owner: 'researcher',
      ownerId: researcher.handle.sessionId,
    });
    expect(result.text).toBe('You claimed task-1 r2 in_progress (owner researcher) Write the importer.');
  });

  it('given a task the caller already works on, then claiming again changes nothing', async () => {
    const team = await toolTeam(['researcher']);
    await withTask(team);
    await call(memberOf(team, 'researcher'), 'claim_task', { taskId: 'task-1' });
    const again = await call(memberOf(team, 'researcher'), 'claim_task', { taskId: 'task-1' });
    expect(again.text).toBe(
      'You already own task-1 r2 in_progress (owner researcher) Write the importer; nothing changed.',
    );
    expect((await team.lead.handle.tasks())[0]?.revision).toBe(2);
  });

  it('given a task someone else owns, a completed task, or a blocked task, then the claim is refused and nothing is written', async () => {
    const team = await toolTeam(['researcher', 'reviewer']);
    await withTask(team, { subject: 'owned', owner: 'reviewer' });
    await withTask(team, { subject: 'done' });
    await call(team.lead, 'update_task', { taskId: 'task-2', expectedRevision: 1, status: 'completed' });
    await withTask(team, { subject: 'waits', blockedBy: ['task-1'] });
    const researcher = memberOf(team, 'researcher');
    expect(failure(await call(researcher, 'claim_task', { taskId: 'task-1' }))).toEqual({
      code: 'TaskNotClaimable',
      text: 'You cannot claim task "task-1": it is owned by reviewer.',
    });
    expect(failure(await call(researcher, 'claim_task', { taskId: 'task-2' }))).toEqual({
      code: 'TaskNotClaimable',
      text: 'You cannot claim task "task-2": it is completed.',
    });
    expect(failure(await call(researcher, 'claim_task', { taskId: 'task-3' }))).toEqual({
      code: 'TaskNotClaimable',
      text: 'You cannot claim task "task-3": it is blocked by task-1, not yet completed.',
    });
    expect((await team.lead.handle.tasks()).map((task) => task.revision)).toEqual([1, 2, 1]);
  });

  it('given a blocker that is completed, then the waiting task can be claimed', async () => {
    const team = await toolTeam(['researcher']);
    await withTask(team, { subject: 'first' });
    await withTask(team, { subject: 'second', blockedBy: ['task-1'] });
    await call(team.lead, 'update_task', { taskId: 'task-1', expectedRevision: 1, status: 'completed' });
    expect(taskOf(await call(memberOf(team, 'researcher'), 'claim_task', { taskId: 'task-2' }))).toMatchObject({
      owner: 'researcher',
      status: 'in_progress',
    });
  });

  it('given an unknown task id, then it is refused as not found', async () => {
    const team = await toolTeam(['researcher']);
    expect(failure(await call(memberOf(team, 'researcher'), 'claim_task', { taskId: 'task-7' }))).toEqual({
      code: 'TaskNotFound',
      text: 'There is no task "task-7"; list_tasks shows the tasks.',
    });
  });

  it('given two members claiming one task at once, then exactly one owns it and the other is refused', async () => {
    const team = await toolTeam(['researcher', 'reviewer']);
    await withTask(team);
    const results = await Promise.all([
      call(memberOf(team, 'researcher'), 'claim_task', { taskId: 'task-1' }),
      call(memberOf(team, 'reviewer'), 'claim_task', { taskId: 'task-1' }),
    ]);
    expect(results.filter((result) => !result.isError)).toHaveLength(1);
    expect(['TaskRevisionConflict', 'TaskNotClaimable']).toContain(
      results.map(failure).find((outcome) => outcome.code !== 'none')?.code,
    );
    const [task] = await team.lead.handle.tasks();
    expect(task?.revision).toBe(2);
    expect(task?.ownerId).toBe(
      results[0]?.isError === false
        ? memberOf(team, 'researcher').handle.sessionId
        : memberOf(team, 'reviewer').handle.sessionId,
    );
  });
});

describe('update_task', () => {
  it('given the revision last seen, then the change is written at the next revision', async () => {
    const team = await toolTeam(['researcher']);
    await withTask(team);
    const result = await call(memberOf(team, 'researcher'), 'update_task', {
      taskId: 'task-1',
      expectedRevision: 1,
      status: 'completed',
      owner: 'researcher',
    });
    expect(taskOf(result)).toMatchObject({ revision: 2, status: 'completed', owner: 'researcher' });
    expect(result.text).toBe('Updated task-1 r2 completed (owner researcher) Write the importer.');
  });

  it('given a stale revision, then nothing is written and the sentence gives the current revision', async () => {
    const team = await toolTeam([]);
    await withTask(team);
    await call(team.lead, 'update_task', { taskId: 'task-1', expectedRevision: 1, subject: 'Renamed' });
    expect(
      failure(await call(team.lead, 'update_task', { taskId: 'task-1', expectedRevision: 1, status: 'completed' })),
    ).toEqual({
      code: 'TaskRevisionConflict',
      text: 'Task "task-1" is at revision 2, not 1: it changed since you read it, nothing was written, so list the tasks and try again.',
    });
  });

  it('given owner null, then the task is released', async () => {
    const team = await toolTeam(['researcher']);
    await withTask(team, { subject: 'x', owner: 'researcher' });
    const released = taskOf(
      await call(team.lead, 'update_task', { taskId: 'task-1', expectedRevision: 1, owner: null }),
    );
    expect(released).not.toHaveProperty('owner');
    expect(released).not.toHaveProperty('ownerId');
  });

  it('given no change at all, or an unknown owner, then it is refused', async () => {
    const team = await toolTeam([]);
    await withTask(team);
    expect(failure(await call(team.lead, 'update_task', { taskId: 'task-1', expectedRevision: 1 }))).toEqual({
      code: 'NothingToUpdate',
      text: 'The update of task "task-1" changes nothing; name at least one field to change.',
    });
    expect(
      failure(await call(team.lead, 'update_task', { taskId: 'task-1', expectedRevision: 1, owner: 'ghost' })).code,
    ).toBe('UnknownMember');
    expect((await team.lead.handle.tasks())[0]?.revision).toBe(1);
  });
});
