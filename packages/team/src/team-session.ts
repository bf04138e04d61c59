import type {
  MessageId,
  SessionId,
  SessionRole,
  TaskId,
  TeamId,
  TeamMemberSnapshot,
  TeamTaskSnapshot,
} from '@teamlog/events';
import type { TaskChanges } from '@teamlog/domain';
import type { SendRequest } from './send-request';

export interface NewTask {
  readonly subject: string;
  readonly description?: string;
  /** Task ids that must be live (not deleted); no self-block, duplicate or cycle. */
  readonly blockedBy?: readonly TaskId[];
  readonly writeScopes?: readonly string[];
  readonly ownerId?: SessionId;
}

/** Compare-and-set: refused with TaskRevisionConflict unless the task is still at `expectedRevision`. */
export interface TaskUpdate extends TaskChanges {
  readonly expectedRevision: number;
}

/**
 * What a session (the Lead or a member) acts through. Every send is attributed to this session:
 * there is no way to pass another sender.
 */
export interface TeamSession {
  readonly sessionId: SessionId;
  readonly teamId: TeamId;
  /** The name others address it by ("lead" for the Lead). */
  readonly name: string;
  readonly role: SessionRole;
  /** Resolves with the accepted inbox MessageId, or rejects with a typed error; see docs/team-messaging.md. */
  send(request: SendRequest): Promise<MessageId>;
  roster(): Promise<readonly TeamMemberSnapshot[]>;
  tasks(): Promise<readonly TeamTaskSnapshot[]>;
  createTask(task: NewTask): Promise<TeamTaskSnapshot>;
  updateTask(taskId: TaskId, update: TaskUpdate): Promise<TeamTaskSnapshot>;
}

export interface MemberSpawn {
  readonly name: string;
  readonly description: string;
  /** Recorded on the roster (the harness's "spawn", "scripted", ...: docs/rules.md#team-record-payloads). */
  readonly provider?: string;
}

export interface MemberSession extends TeamSession {
  readonly role: 'member';
}

/**
 * A member the Lead spawned: who it is, not a handle to act as it. The Lead addresses members by
 * name (`send({ target })`); only the host holds member handles (`TeamLog.openMember`), so nothing
 * the Lead's handle does is ever attributed to a member.
 */
export interface SpawnedMember {
  readonly sessionId: SessionId;
  readonly teamId: TeamId;
  readonly name: string;
}

export interface LeadSession extends TeamSession {
  readonly role: 'lead';
  /** Roster `provisioning`, the member's own stream, then `active` (or `failed` and MemberSpawnFailed). */
  spawnMember(spawn: MemberSpawn): Promise<SpawnedMember>;
}
