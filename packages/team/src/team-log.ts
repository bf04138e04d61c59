import { type SessionId, type TeamId, leadOf, teamIdOf } from '@teamlog/events';
import { leadName } from '@teamlog/domain';
import { openLeadHandle, openMemberHandle } from './session-handle';
import { HostSessionRuntime, type SessionRuntime } from './session-runtime';
import type { SessionSnapshot } from './session-snapshot';
import type { SteerPaths } from './steer-paths';
import type { TeamEngine } from './team-engine';
import { teamNameOf } from './team-name';
import type { LeadSession, MemberSession } from './team-session';

export interface CreateTeamOptions {
  /** Recorded in the Lead's session header. */
  readonly cwd?: string;
  /** The team's readable name (the dashboard and `teamlog sessions` show it); default: the last segment of `cwd`. */
  readonly name?: string;
}

/**
 * The Team service over one EventStore. Sessions act through their handles; the host reports each
 * session's loop through `runtime`. Create one with `createTeamLog`.
 */
export interface TeamLog {
  /** A new team: the Lead's session (header, then `teamlog/session/created` role lead). Not started yet. */
  createTeam(options?: CreateTeamOptions): Promise<LeadSession>;
  /** The Lead handle of an existing team; a spawn cut off by a crash is settled first. */
  openLead(teamId: TeamId): Promise<LeadSession>;
  /** The handle of an active member, by name or session id. */
  openMember(teamId: TeamId, member: string): Promise<MemberSession>;
  /** The host's reports about one session's loop. */
  runtime(sessionId: SessionId): SessionRuntime;
  /** The session as its own stream tells it: status, pending lists, inbox entries. */
  session(sessionId: SessionId): Promise<SessionSnapshot>;
  /** Lets operations already running finish, then refuses new ones with TeamLogDisposed. The store stays open. */
  dispose(): Promise<void>;
}

export class TeamLogService implements TeamLog {
  readonly #engine: TeamEngine;
  readonly #paths: SteerPaths;

  constructor(engine: TeamEngine, paths: SteerPaths) {
    this.#engine = engine;
    this.#paths = paths;
  }

  createTeam(options: CreateTeamOptions = {}): Promise<LeadSession> {
    return this.#engine.track('createTeam', async () => {
      const lead = this.#engine.ids.sessionId();
      const teamId = teamIdOf(lead);
      const teamName = teamNameOf(options);
      await this.#engine.createSession({
        sessionId: lead,
        teamId,
        role: 'lead',
        name: leadName,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(teamName === undefined ? {} : { teamName }),
      });
      return openLeadHandle(this.#engine, this.#paths, teamId);
    });
  }

  openLead(teamId: TeamId): Promise<LeadSession> {
    return this.#engine.track('openLead', async () => {
      await this.#engine.assertTeam(teamId);
      await this.settleInterruptedSpawns(teamId);
      return openLeadHandle(this.#engine, this.#paths, teamId);
    });
  }

  async openMember(teamId: TeamId, member: string): Promise<MemberSession> {
    await this.openLead(teamId);
    return openMemberHandle(this.#engine, this.#paths, teamId, member);
  }

  runtime(sessionId: SessionId): SessionRuntime {
    return Object.freeze(new HostSessionRuntime(this.#engine, sessionId));
  }

  session(sessionId: SessionId): Promise<SessionSnapshot> {
    return this.#engine.track('session', () => this.#engine.snapshot(sessionId));
  }

  dispose(): Promise<void> {
    return this.#engine.dispose();
  }

  /** Startup recovery (docs/rules.md#member-startup-recovery): a lone `provisioning` becomes active if the member's stream exists, else failed. */
  private async settleInterruptedSpawns(teamId: TeamId): Promise<void> {
    const provisioning = await this.#engine.readTeam(teamId, (state) =>
      [...state.team.members.values()]
        .filter((entry) => entry.snapshot.phase === 'provisioning')
        .map((entry) => entry.snapshot.id),
    );
    for (const memberId of provisioning) {
      const created = await this.#engine.readSession(memberId, (state) => state.lifecycle.native);
      const outcome = created
        ? ({ phase: 'active' } as const)
        : ({ phase: 'failed', error: 'spawn interrupted before the member stream was created' } as const);
      await this.#engine.decideTeam(teamId, { type: 'settle-member', memberId, outcome }, leadOf(teamId));
    }
  }
}
