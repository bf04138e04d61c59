import { isRight } from 'fp-ts/Either';
import { type TaskId, type TeamId, decodeSessionHeader, sequentialIds, uuidV7Ids } from '@teamlog/events';
import { InMemoryEventStore, sessionHeaderStream, sessionStream } from '@teamlog/store';
import { createTeamLog } from '@teamlog/team';
import { HookedStore } from './hooked-store';
import { fixedClock, fixture, member, startedTeam, streamOf, typesOf } from '@teamlog/test-support/team-fixture';

describe('team creation and roster', () => {
  it('given a new team, then the Lead stream starts with created (role lead, the team named after its working directory) and the header stream holds its header', async () => {
    const { store, teamlog } = fixture();
    const lead = await teamlog.createTeam({ cwd: '/work/app' });
    expect(lead.teamId).toBe(lead.sessionId);
    const events = await streamOf(store, lead.sessionId);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['teamlog/session/created', { teamId: lead.teamId, role: 'lead', name: 'lead', teamName: 'app' }],
    ]);
    const header: unknown[] = [];
    for await (const event of store.readStream(sessionHeaderStream(lead.sessionId))) header.push(event.data);
    expect(header).toEqual([
      {
        formatVersion: 4,
        header: expect.objectContaining({
          type: 'session',
          version: 4,
          id: lead.sessionId,
          isSeeded: false,
          delegationDepth: 0,
          cwd: '/work/app',
        }),
      },
    ]);
  });

  it('given a Lead, when it spawns a member, then the Lead stream holds provisioning then active, and the member stream starts with created', async () => {
    const { store, teamlog } = fixture();
    const lead = await teamlog.createTeam();
    const researcher = await lead.spawnMember({
      name: 'researcher',
      description: 'reads papers',
      provider: 'scripted',
    });
    const leadEvents = await streamOf(store, lead.sessionId);
    expect(
      leadEvents
        .filter((event) => event.type === 'team/member')
        .map((event) => (event.data as { member: { phase: string } }).member.phase),
    ).toEqual(['provisioning', 'active']);
    expect(leadEvents[1]?.data).toEqual({
      version: 2,
      teamId: lead.teamId,
      member: {
        id: researcher.sessionId,
        name: 'researcher',
        description: 'reads papers',
        provider: 'scripted',
        context: 'fresh',
        phase: 'provisioning',
      },
    });
    expect((await streamOf(store, researcher.sessionId)).map((event) => event.data)).toEqual([
      { teamId: lead.teamId, role: 'member', name: 'researcher', parentSessionId: lead.sessionId },
    ]);
    expect(await lead.roster()).toEqual([expect.objectContaining({ id: researcher.sessionId, phase: 'active' })]);
    const headers: unknown[] = [];
    for await (const event of store.readStream(sessionHeaderStream(researcher.sessionId)))
      headers.push((event.data as { header: unknown }).header);
    expect(
      headers.map((header) => decodeSessionHeader(header)).map((decoded) => isRight(decoded) && decoded.right),
    ).toEqual([
      expect.objectContaining({
        version: 4,
        parentSession: lead.sessionId,
        origin: 'subagent',
        delegationDepth: 1,
        isSeeded: false,
      }),
    ]);
  });

  it('given a member stream that cannot be created, when the Lead spawns, then MemberSpawnFailed, the roster says failed, and sends to it are refused', async () => {
    const store = new HookedStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const lead = await teamlog.createTeam();
    store.before = (stream) => {
      if (stream.startsWith('session-') && stream !== sessionStream(lead.sessionId)) throw new Error('disk full');
    };
    await expect(lead.spawnMember({ name: 'broken', description: 'never starts' })).rejects.toMatchObject({
      code: 'MemberSpawnFailed',
    });
    expect(await lead.roster()).toEqual([
      expect.objectContaining({ name: 'broken', phase: 'failed', error: expect.stringContaining('disk full') }),
    ]);
    await expect(lead.send({ target: 'broken', message: 'hello?' })).rejects.toMatchObject({ code: 'TargetClosed' });
  });

  it('given a taken name or the name "lead", when a member is spawned with it, then it is refused and the roster is unchanged', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher');
    await expect(team.lead.spawnMember({ name: 'researcher', description: 'twin' })).rejects.toMatchObject({
      code: 'TeamRuleViolation',
    });
    await expect(team.lead.spawnMember({ name: 'lead', description: 'usurper' })).rejects.toMatchObject({
      code: 'InvalidMemberName',
    });
    expect((await team.lead.roster()).map((entry) => entry.name)).toEqual(['researcher']);
  });

  it.each([
    ['after the member stream was created', 'active', 'teamlog/session/created'],
    ['before the member stream was created', 'failed', 'team/member'],
  ])(
    'given a process that died %s, when the team is opened again, then the lone provisioning record becomes %s',
    async (_case, phase, lastWritten) => {
      const inner = new InMemoryEventStore();
      const store = new HookedStore(inner);
      const { teamlog } = fixture(store);
      const lead = await teamlog.createTeam();
      let dead = false;
      store.before = () => {
        if (dead) throw new Error('process died');
      };
      store.after = (_stream, events) => {
        if (events.some((event) => event.type === lastWritten)) dead = true;
      };
      await expect(lead.spawnMember({ name: 'orphan', description: 'half spawned' })).rejects.toThrow();
      expect((await lead.roster()).map((entry) => entry.phase)).toEqual(['provisioning']);
      const restarted = createTeamLog({
        store: inner,
        ids: { ...sequentialIds('r'), eventId: uuidV7Ids.eventId },
        clock: fixedClock(),
      });
      const roster = await (await restarted.openLead(lead.teamId)).roster();
      expect(roster.map((entry) => entry.phase)).toEqual([phase]);
    },
  );

  it('given no such team, when it is opened, then TeamNotFound', async () => {
    const { teamlog } = fixture();
    await expect(teamlog.openLead('nope' as TeamId)).rejects.toMatchObject({ code: 'TeamNotFound' });
  });
});

describe('team tasks: compare-and-set revisions (docs/rules.md#task-revisions) and the dependency graph (docs/rules.md#task-dependency-graph)', () => {
  it('given tasks with dependencies, when they progress, then each change is a team/task v2 snapshot one revision up', async () => {
    const { store, teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher');
    const researcher = member(team, 'researcher');
    const research = await team.lead.createTask({
      subject: 'Research',
      description: 'find the API',
      writeScopes: ['notes/'],
    });
    const build = await team.lead.createTask({ subject: 'Build', blockedBy: [research.id] });
    const claimed = await researcher.updateTask(research.id, {
      expectedRevision: 1,
      status: 'in_progress',
      ownerId: researcher.sessionId,
    });
    const done = await researcher.updateTask(research.id, { expectedRevision: claimed.revision, status: 'completed' });
    expect([research.id, build.id]).toEqual(['task-1', 'task-2']);
    expect(done).toEqual({
      id: 'task-1',
      revision: 3,
      subject: 'Research',
      description: 'find the API',
      status: 'completed',
      ownerId: researcher.sessionId,
      blockedBy: [],
      writeScopes: ['notes/'],
    });
    const taskRecords = (await streamOf(store, team.lead.sessionId)).filter((event) => event.type === 'team/task');
    expect(
      taskRecords
        .map((event) => event.data as { version: number; task: { id: string; revision: number } })
        .map(({ version, task }) => [version, task.id, task.revision]),
    ).toEqual([
      [2, 'task-1', 1],
      [2, 'task-2', 1],
      [2, 'task-1', 2],
      [2, 'task-1', 3],
    ]);
  });

  it('given two members editing one task, when the second uses a stale revision, then TaskRevisionConflict and the first change stands', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    const task = await team.lead.createTask({ subject: 'Shared' });
    await member(team, 'researcher').updateTask(task.id, {
      expectedRevision: 1,
      ownerId: member(team, 'researcher').sessionId,
    });
    await expect(
      member(team, 'implementer').updateTask(task.id, {
        expectedRevision: 1,
        ownerId: member(team, 'implementer').sessionId,
      }),
    ).rejects.toMatchObject({
      code: 'TaskRevisionConflict',
      fault: { taskId: task.id, expected: 1, actual: 2 },
      message: `task "${task.id}" is at revision 2, not 1`,
    });
    expect((await team.lead.tasks())[0]).toMatchObject({ revision: 2, ownerId: member(team, 'researcher').sessionId });
  });

  it('given a dependency that would make a cycle or delete a live blocker, then the change is refused and the Lead log never holds it', async () => {
    const { store, teamlog } = fixture();
    const team = await startedTeam(teamlog);
    const a = await team.lead.createTask({ subject: 'A' });
    await team.lead.createTask({ subject: 'B', blockedBy: [a.id] });
    const before = typesOf(await streamOf(store, team.lead.sessionId));
    await expect(
      team.lead.updateTask(a.id, { expectedRevision: 1, blockedBy: ['task-2' as TaskId] }),
    ).rejects.toMatchObject({ code: 'TeamRuleViolation' });
    await expect(team.lead.updateTask(a.id, { expectedRevision: 1, status: 'deleted' })).rejects.toMatchObject({
      code: 'TeamRuleViolation',
    });
    await expect(team.lead.createTask({ subject: 'C', blockedBy: ['task-9' as TaskId] })).rejects.toMatchObject({
      code: 'TeamRuleViolation',
    });
    expect(typesOf(await streamOf(store, team.lead.sessionId))).toEqual(before);
  });
});
