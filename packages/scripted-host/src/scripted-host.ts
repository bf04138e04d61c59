import { type IdSource, type SessionId, type UserMessage, uuidV7Ids } from '@teamlog/events';
import type { EventStore } from '@teamlog/store';
import {
  type AcceptedNotice,
  type CreateTeamOptions,
  type LeadSession,
  type MemberSession,
  type MemberSpawn,
  type TeamLog,
  type TeamSession,
  createTeamLog,
  isTeamLogError,
} from '@teamlog/team';
import { senderNameOf } from './relayed-text';

/** What a scripted session can do inside one of its turns. */
export interface TurnContext {
  readonly session: TeamSession;
  readonly turn: number;
  /** One step: `step/start` (claims steered messages), the work, `step/end`. Returns what the step claimed. */
  step(work?: (claimed: readonly UserMessage[]) => Promise<void> | void): Promise<readonly UserMessage[]>;
  /** A line in the host's transcript. */
  note(text: string): void;
}

/**
 * A scripted session: called with the messages claimed when its turn starts, and again with any
 * message steered in after its own steps (the host runs the extra step that claims them).
 */
export type Reaction = (turn: TurnContext, messages: readonly UserMessage[]) => Promise<void>;

export interface ScriptedHostOptions {
  readonly store: EventStore;
  readonly ids?: IdSource;
  readonly clock?: () => Date;
}

interface Scripted {
  readonly session: TeamSession;
  readonly reaction: Reaction;
  /** The session's turns run one after another. */
  queue: Promise<void>;
  /** A turn is queued that has not begun: it will claim whatever is accepted meanwhile. */
  turnQueued: boolean;
}

const describeClaim = (messages: readonly UserMessage[]): string =>
  messages.map((message) => senderNameOf(message) ?? message.source.kind).join(', ');

/**
 * A deterministic host for tests and the demo: scripted sessions (no model) run turns and steps on
 * the real engine, claim their inbox at boundaries, and wake when a message needs a turn.
 */
export class ScriptedHost {
  readonly teamlog: TeamLog;
  readonly transcript: string[] = [];
  readonly notices: AcceptedNotice[] = [];
  private readonly sessions = new Map<SessionId, Scripted>();
  private readonly running = new Set<Promise<void>>();
  private readonly failures: unknown[] = [];

  constructor(options: ScriptedHostOptions) {
    this.teamlog = createTeamLog({
      store: options.store,
      ids: options.ids ?? uuidV7Ids,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      onAccepted: (notice) => this.accepted(notice),
    });
  }

  async createLead(reaction: Reaction, team: CreateTeamOptions = {}): Promise<LeadSession> {
    const lead = await this.teamlog.createTeam(team);
    this.register(lead, reaction);
    await this.start(lead.sessionId);
    return lead;
  }

  /** Spawn a member; `start: false` leaves it not started (messages wait until `start`). */
  async spawn(
    lead: LeadSession,
    spawn: MemberSpawn,
    reaction: Reaction,
    options: { readonly start?: boolean } = {},
  ): Promise<MemberSession> {
    const spawned = await lead.spawnMember({ provider: 'scripted', ...spawn });
    // The host, not the Lead, holds the member's handle.
    const member = await this.teamlog.openMember(lead.teamId, spawned.sessionId);
    this.register(member, reaction);
    if (options.start !== false) await this.start(member.sessionId);
    return member;
  }

  /** Report the session started; messages kept while it was not started need a turn now. */
  async start(sessionId: SessionId): Promise<void> {
    const started = await this.teamlog.runtime(sessionId).start();
    this.log(sessionId, 'started');
    if (started.session.pending['next-turn'].length > 0) this.schedule(sessionId);
  }

  /** Run one turn of a session with ad hoc work instead of its reaction (a scripted prompt). */
  turn(sessionId: SessionId, work: (turn: TurnContext) => Promise<void>): Promise<void> {
    return this.enqueue(sessionId, (scripted) => this.runTurn(scripted, async (context) => work(context)));
  }

  async evict(sessionId: SessionId): Promise<void> {
    await this.idle(sessionId);
    await this.teamlog.runtime(sessionId).evict();
    this.log(sessionId, 'evicted from memory');
  }

  async kill(sessionId: SessionId): Promise<void> {
    await this.idle(sessionId);
    await this.teamlog.runtime(sessionId).close('killed', 'killed by the host');
    this.log(sessionId, 'killed');
  }

  /** Wait until no scheduled turn is left; rethrows the first failure of a scripted turn. */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    const [failure] = this.failures.splice(0);
    if (failure !== undefined) throw failure;
  }

  dispose(): Promise<void> {
    return this.teamlog.dispose();
  }

  private register(session: TeamSession, reaction: Reaction): void {
    this.sessions.set(session.sessionId, { session, reaction, queue: Promise.resolve(), turnQueued: false });
  }

  private scripted(sessionId: SessionId): Scripted {
    const scripted = this.sessions.get(sessionId);
    if (scripted === undefined) throw new Error(`session ${sessionId} is not scripted by this host`);
    return scripted;
  }

  private async idle(sessionId: SessionId): Promise<void> {
    await this.scripted(sessionId).queue;
  }

  private accepted(notice: AcceptedNotice): void {
    this.notices.push(notice);
    if (!this.sessions.has(notice.target)) return;
    switch (notice.delivery) {
      case 'steer':
      case 'await-start':
        return; // claimed at the next step boundary / when the session starts
      case 'cold-resume':
        this.log(notice.target, 'cold resume: rebuilt from its stream');
        this.schedule(notice.target);
        return;
      case 'start-turn':
        this.schedule(notice.target);
        return;
      default: {
        const unreachable: never = notice.delivery;
        throw new Error(`unknown delivery ${String(unreachable)}`);
      }
    }
  }

  private schedule(sessionId: SessionId): void {
    const scripted = this.scripted(sessionId);
    if (scripted.turnQueued) return;
    scripted.turnQueued = true;
    void this.enqueue(sessionId, (s) => this.runTurn(s, (context, claimed) => s.reaction(context, claimed)), true);
  }

  /** Queue work on a session; a woken turn's failure is kept for `settle`, an explicit turn's goes to its caller. */
  private enqueue(sessionId: SessionId, work: (scripted: Scripted) => Promise<void>, woken = false): Promise<void> {
    const scripted = this.scripted(sessionId);
    const next = scripted.queue.then(() => work(scripted));
    const settled = next.then(
      () => undefined,
      (error: unknown) => {
        if (woken) this.failures.push(error);
      },
    );
    scripted.queue = settled;
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    return woken ? settled : next;
  }

  private async runTurn(
    scripted: Scripted,
    work: (context: TurnContext, claimed: readonly UserMessage[]) => Promise<void>,
  ): Promise<void> {
    const runtime = this.teamlog.runtime(scripted.session.sessionId);
    scripted.turnQueued = false;
    const begun = await runtime.beginTurn();
    const turn = begun.session.turn;
    this.log(
      scripted.session.sessionId,
      `turn ${turn} began${begun.claimed.length === 0 ? '' : `, claimed from ${describeClaim(begun.claimed)}`}`,
    );
    const context: TurnContext = {
      session: scripted.session,
      turn,
      step: async (stepWork) => {
        const step = await runtime.beginStep();
        if (step.claimed.length > 0)
          this.log(
            scripted.session.sessionId,
            `turn ${turn} step ${step.session.step ?? 0} claimed steer from ${describeClaim(step.claimed)}`,
          );
        await stepWork?.(step.claimed);
        await runtime.endStep();
        return step.claimed;
      },
      note: (text) => this.log(scripted.session.sessionId, text),
    };
    await work(context, begun.claimed);
    await this.completeTurn(scripted, context);
    if (scripted.session.role === 'member') await runtime.becomeResident();
  }

  /** The end of a turn is a step boundary: steered messages still pending get one more step each round. */
  private async completeTurn(scripted: Scripted, context: TurnContext): Promise<void> {
    const runtime = this.teamlog.runtime(scripted.session.sessionId);
    for (;;) {
      try {
        await runtime.endTurn();
        this.log(scripted.session.sessionId, `turn ${context.turn} ended`);
        return;
      } catch (error) {
        if (!isTeamLogError(error, 'SteerInputPending')) throw error;
        let late: readonly UserMessage[] = [];
        await context.step((claimed) => {
          late = claimed;
        });
        await scripted.reaction(context, late);
      }
    }
  }

  private log(sessionId: SessionId, text: string): void {
    const name = this.sessions.get(sessionId)?.session.name ?? sessionId;
    this.transcript.push(`${name}: ${text}`);
  }
}
