import {
  type MessageId,
  type SessionId,
  type TaskId,
  type TeamId,
  type TeamMemberSnapshot,
  type TeamTaskSnapshot,
  leadOf,
} from '@teamlog/events';
import { type TeamWriteEvent, leadName } from '@teamlog/domain';
import { type Sender, send } from './send';
import type { SteerPaths } from './steer-paths';
import type { TeamEngine } from './team-engine';
import type {
  LeadSession,
  MemberSession,
  MemberSpawn,
  NewTask,
  SpawnedMember,
  TaskUpdate,
  TeamSession,
} from './team-session';
import { TeamLogError } from './team-log-errors';

/** Task commands always write exactly one task record (or are refused). */
const writtenTask = (events: readonly TeamWriteEvent[]): TeamTaskSnapshot => {
  for (const event of events) if (event.type === 'team/task') return event.data.task;
  throw new Error('a task command wrote no task record');
};

/**
 * A session's handle. Its identity is sealed: the session it acts as, its team and name sit in
 * private fields captured at creation, which no assignment, `defineProperty`, prototype or `call`
 * can reach; the public `sessionId`, `teamId` and `name` only read them. Engine and steer paths sit
 * in private fields too: nothing on a handle reaches them. Handles are frozen when made (sealed).
 */
class SessionHandle implements TeamSession {
  readonly #engine: TeamEngine;
  readonly #paths: SteerPaths;
  readonly #sessionId: SessionId;
  readonly #teamId: TeamId;
  readonly #name: string;
  /** The sender every send of this handle names: made once, frozen (no object per send). */
  readonly #sender: Sender;

  constructor(engine: TeamEngine, paths: SteerPaths, sessionId: SessionId, teamId: TeamId, name: string) {
    this.#engine = engine;
    this.#paths = paths;
    this.#sessionId = sessionId;
    this.#teamId = teamId;
    this.#name = name;
    this.#sender = Object.freeze({ teamId, sessionId });
  }

  get sessionId(): SessionId {
    return this.#sessionId;
  }

  get teamId(): TeamId {
    return this.#teamId;
  }

  get name(): string {
    return this.#name;
  }

  get role(): 'lead' | 'member' {
    return this.#sessionId === leadOf(this.#teamId) ? 'lead' : 'member';
  }

  protected get engine(): TeamEngine {
    return this.#engine;
  }

  send(request: Parameters<TeamSession['send']>[0]): Promise<MessageId> {
    return send(this.#engine, this.#paths, this.#sender, request);
  }

  roster(): Promise<readonly TeamMemberSnapshot[]> {
    return this.#engine.track('roster', () =>
      this.#engine.readTeam(this.#teamId, (state) => [...state.team.members.values()].map((entry) => entry.snapshot)),
    );
  }

  tasks(): Promise<readonly TeamTaskSnapshot[]> {
    return this.#engine.track('tasks', () =>
      this.#engine.readTeam(this.#teamId, (state) => [...state.team.tasks.values()].map((entry) => entry.snapshot)),
    );
  }

  createTask(task: NewTask): Promise<TeamTaskSnapshot> {
    return this.#engine.track('createTask', async () => {
      const events = await this.#engine.decideTeam(
        this.#teamId,
        {
          type: 'create-task',
          task: {
            subject: task.subject,
            description: task.description ?? '',
            blockedBy: task.blockedBy ?? [],
            writeScopes: task.writeScopes ?? [],
            ...(task.ownerId === undefined ? {} : { ownerId: task.ownerId }),
          },
        },
        this.#sessionId,
      );
      return writtenTask(events);
    });
  }

  updateTask(taskId: TaskId, update: TaskUpdate): Promise<TeamTaskSnapshot> {
    return this.#engine.track('updateTask', async () => {
      const { expectedRevision, ...changes } = update;
      const events = await this.#engine.decideTeam(
        this.#teamId,
        { type: 'update-task', taskId, expectedRevision, changes },
        this.#sessionId,
      );
      return writtenTask(events);
    });
  }
}

class MemberHandle extends SessionHandle implements MemberSession {
  override get role(): 'member' {
    return 'member';
  }
}

class LeadHandle extends SessionHandle implements LeadSession {
  readonly #teamId: TeamId;

  constructor(engine: TeamEngine, paths: SteerPaths, teamId: TeamId) {
    super(engine, paths, leadOf(teamId), teamId, leadName);
    this.#teamId = teamId;
  }

  override get role(): 'lead' {
    return 'lead';
  }

  spawnMember(spawn: MemberSpawn): Promise<SpawnedMember> {
    return this.engine.track('spawnMember', async () => {
      const sessionId = this.engine.ids.sessionId();
      const member = {
        id: sessionId,
        name: spawn.name,
        description: spawn.description,
        provider: spawn.provider ?? 'spawn',
        context: 'fresh' as const,
      };
      const teamId = this.#teamId;
      const lead = leadOf(teamId);
      await this.engine.decideTeam(teamId, { type: 'provision-member', member }, lead);
      try {
        await this.engine.createSession({ sessionId, teamId, role: 'member', name: spawn.name });
      } catch (error) {
        const failed = new TeamLogError({ code: 'MemberSpawnFailed', memberName: spawn.name, sessionId, cause: error });
        await this.engine.decideTeam(
          teamId,
          { type: 'settle-member', memberId: sessionId, outcome: { phase: 'failed', error: failed.message } },
          lead,
        );
        throw failed;
      }
      await this.engine.decideTeam(
        teamId,
        { type: 'settle-member', memberId: sessionId, outcome: { phase: 'active' } },
        lead,
      );
      return { sessionId, teamId, name: spawn.name };
    });
  }
}

/** The handle of an active member, by name or session id: for the host composition (TeamLog) only. */
export const openMemberHandle = (
  engine: TeamEngine,
  paths: SteerPaths,
  teamId: TeamId,
  address: string,
): Promise<MemberSession> =>
  engine.track('openMember', async () => {
    const found = await engine.readTeam(teamId, (state) => {
      const id = state.team.memberNames.get(address) ?? (address as SessionId);
      return state.team.members.get(id)?.snapshot;
    });
    if (found === undefined || found.phase !== 'active')
      throw new TeamLogError({ code: 'MemberNotFound', member: address });
    return Object.freeze(new MemberHandle(engine, paths, found.id, teamId, found.name));
  });

/** The Lead's handle of a team, sealed: for the host composition (TeamLog) only. */
export const openLeadHandle = (engine: TeamEngine, paths: SteerPaths, teamId: TeamId): LeadSession =>
  Object.freeze(new LeadHandle(engine, paths, teamId));

// A changed prototype getter could make a handle misreport who it is: the handle classes are fixed.
for (const type of [SessionHandle, MemberHandle, LeadHandle]) Object.freeze(type.prototype);
