import type { JsonObject } from '@teamlog/events';
import { type DeterministicRandom, deterministicRandom } from './deterministic-random';

/*
 * A deterministic corpus of historical (DSH V4) session logs for the replay benchmark: per team a
 * Lead log (spawns, task snapshots, mailbox-era `team/message/queued` and `delivered` records,
 * version 1 then version 2) and one log per member (work turns, inbox splices with `team-message`
 * items, later `team-relay` items of the direct era, claims and the claimed `user/message`s).
 * The records follow the Team rules (docs/rules.md), so a replay folds them without a team failure.
 */

export interface TeamCorpusOptions {
  /** Stop after the action that brings the corpus to at least this many events (headers not counted). */
  readonly events: number;
  readonly teams: number;
  readonly membersPerTeam: number;
  readonly seed?: number;
}

export interface CorpusRecord {
  readonly sessionId: string;
  /** One line of that session's log: its header or one event envelope. */
  readonly line: JsonObject;
}

export interface CorpusSummary {
  readonly sessions: number;
  readonly events: number;
  readonly teamRecords: { readonly v1: number; readonly v2: number };
  readonly queued: number;
  readonly delivered: number;
  readonly relayed: number;
  readonly claimed: number;
  readonly tasks: number;
}

/** Mailbox era ends 2026-09-26 and the relay era starts 2026-09-27 (docs/rules.md#era-rules). */
const mailboxEraStart = Date.UTC(2026, 8, 1);
const relayEraStart = Date.UTC(2026, 8, 27, 1);
const tickMs = 250;
/** Share of the corpus written as mailbox era; its first half writes version-1 Team records. */
const mailboxShare = 0.5;
const words = [
  'review',
  'the',
  'parser',
  'patch',
  'and',
  'report',
  'failing',
  'tests',
  'in',
  'store',
  'module',
  'before',
  'merge',
  'with',
  'notes',
];

type InboxListName = 'next-turn' | 'next-step';

interface SessionLog {
  readonly id: string;
  seq: number;
  turn: number;
}

interface Member extends SessionLog {
  readonly name: string;
  readonly pending: Record<InboxListName, JsonObject[]>;
}

interface Task {
  readonly id: string;
  revision: number;
  status: 'pending' | 'in_progress' | 'completed' | 'deleted';
  ownerId?: string;
  readonly blockedBy: string[];
  /** Never named as a blocker, so deleting it keeps the graph valid. */
  readonly deletable: boolean;
}

interface Team {
  readonly lead: SessionLog;
  readonly members: Member[];
  readonly tasks: Task[];
  nextTask: number;
  nextMessage: number;
}

const hex = (value: number, width: number): string => value.toString(16).padStart(width, '0');
export const corpusSessionId = (team: number, member: number | 'lead'): string =>
  `${hex(0xbe0c0000 + team, 8)}-0000-4000-8000-${member === 'lead' ? '000000000000' : hex(member + 1, 12)}`;

const text = (value: string): JsonObject => ({ type: 'text', text: value });

class CorpusBuilder {
  private readonly random: DeterministicRandom;
  private readonly teams: Team[] = [];
  private readonly out: CorpusRecord[] = [];
  private time = mailboxEraStart;
  private events = 0;
  private counts = { v1: 0, v2: 0, queued: 0, delivered: 0, relayed: 0, claimed: 0, tasks: 0 };

  constructor(private readonly options: TeamCorpusOptions) {
    this.random = deterministicRandom(options.seed ?? 6);
  }

  get done(): boolean {
    return this.events >= this.options.events;
  }

  drain(): CorpusRecord[] {
    return this.out.splice(0, this.out.length);
  }

  summary(): CorpusSummary {
    const { v1, v2, ...rest } = this.counts;
    return {
      sessions: this.teams.length * (1 + this.options.membersPerTeam),
      events: this.events,
      teamRecords: { v1, v2 },
      ...rest,
    };
  }

  private get mailboxEra(): boolean {
    return this.events < this.options.events * mailboxShare;
  }

  private get recordVersion(): 1 | 2 {
    return this.events < (this.options.events * mailboxShare) / 2 ? 1 : 2;
  }

  private emit(log: SessionLog, type: string, data: JsonObject, envelope: JsonObject = {}): number {
    this.time += tickMs;
    const seq = log.seq;
    this.out.push({ sessionId: log.id, line: { type, seq, time: this.time, data, ...envelope } });
    log.seq += 1;
    this.events += 1;
    return seq;
  }

  private sentence(count: number): string {
    return Array.from({ length: count }, () => words[this.random.below(words.length)]).join(' ');
  }

  /** Headers of every session, then each Lead's first turn spawning its members. */
  start(): void {
    for (let index = 0; index < this.options.teams; index += 1) {
      const lead: SessionLog = { id: corpusSessionId(index, 'lead'), seq: 0, turn: 0 };
      const members = Array.from(
        { length: this.options.membersPerTeam },
        (_, k): Member => ({
          id: corpusSessionId(index, k),
          name: `worker-${k + 1}`,
          seq: 0,
          turn: 0,
          pending: { 'next-turn': [], 'next-step': [] },
        }),
      );
      const team: Team = { lead, members, tasks: [], nextTask: 1, nextMessage: 1 };
      this.teams.push(team);
      this.header(lead, {});
      members.forEach((member) =>
        this.header(member, { parentSession: lead.id, origin: 'subagent', delegationDepth: 1 }),
      );
      this.spawnMembers(team);
    }
  }

  private header(log: SessionLog, extra: JsonObject): void {
    this.out.push({
      sessionId: log.id,
      line: {
        type: 'session',
        version: 4,
        id: log.id,
        createdAt: this.time,
        cwd: '/bench/project',
        isSeeded: false,
        delegationDepth: 0,
        ...extra,
      },
    });
  }

  /** `version` is fixed by the caller when the payload depends on it (v1 messages carry `delivery`). */
  private teamRecord(team: Team, type: string, payload: JsonObject, version: 1 | 2 = this.recordVersion): void {
    this.counts[version === 1 ? 'v1' : 'v2'] += 1;
    this.emit(team.lead, type, { version, teamId: team.lead.id, ...payload });
  }

  /** One Lead tool call (a turn of its own) around `records`. */
  private leadToolTurn(team: Team, tool: string, records: () => void): void {
    const lead = team.lead;
    const turn = (lead.turn += 1);
    this.emit(lead, 'turn/start', { turn });
    this.emit(lead, 'step/start', { turn, step: 1 });
    const callId = `call-${lead.seq}`;
    const args = JSON.stringify({ note: this.sentence(6) });
    this.emit(
      lead,
      'assistant/message',
      {
        turn,
        step: 1,
        message: {
          id: `assistant-${lead.seq}`,
          role: 'assistant',
          content: [text(this.sentence(24)), { type: 'tool-call', id: callId, name: tool, arguments: args }],
          source: { kind: 'model', provider: 'bench', model: 'bench-1' },
        },
      },
      { surfaceOp: 'append' },
    );
    const call = this.emit(lead, 'tool/call', { turn, step: 1, callId, name: tool, arguments: args });
    records();
    this.emit(
      lead,
      'tool/result',
      {
        turn,
        step: 1,
        message: {
          id: `tool-${lead.seq}`,
          role: 'tool',
          source: { kind: 'tool', callId },
          toolCallId: callId,
          content: [text('ok')],
        },
      },
      { sourceEventSeqs: [call], surfaceOp: 'append' },
    );
    this.emit(lead, 'step/end', { turn, step: 1 });
    this.emit(lead, 'turn/end', { turn, reason: { kind: 'completed' } });
  }

  private spawnMembers(team: Team): void {
    for (const member of team.members) {
      this.leadToolTurn(team, 'spawn_teammate', () => {
        const snapshot = {
          id: member.id,
          name: member.name,
          description: `${member.name} works on the benchmark`,
          provider: 'spawn',
          context: 'fresh',
        };
        this.teamRecord(team, 'team/member', { member: { ...snapshot, phase: 'provisioning' } });
        this.teamRecord(team, 'team/member', { member: { ...snapshot, phase: 'active' } });
      });
    }
  }

  /** The next action of a team, chosen by weight: member work turn, a send, or a task change. */
  step(index: number): void {
    const team = this.teams[index % this.teams.length] as Team;
    const roll = this.random.next();
    if (roll < 0.45) this.memberTurn(team, this.pick(team.members));
    else if (roll < 0.75) this.send(team);
    else this.taskChange(team);
  }

  private pick<T>(values: readonly T[]): T {
    return values[this.random.below(values.length)] as T;
  }

  private taskSnapshot(task: Task): JsonObject {
    return {
      id: task.id,
      revision: task.revision,
      subject: `${task.id} subject`,
      description: `do ${task.id}`,
      status: task.status,
      ...(task.ownerId === undefined ? {} : { ownerId: task.ownerId }),
      blockedBy: task.blockedBy,
      writeScopes: ['packages/'],
    };
  }

  private taskChange(team: Team): void {
    const open = team.tasks.filter((task) => task.status === 'pending' || task.status === 'in_progress');
    if (open.length < 4 || this.random.chance(0.35)) {
      const number = team.nextTask;
      team.nextTask += 1;
      const blockers = team.tasks.filter((task) => !task.deletable && task.status !== 'deleted');
      const blockedBy = blockers.length > 0 && this.random.chance(0.3) ? [this.pick(blockers).id] : [];
      const task: Task = {
        id: `task-${number}`,
        revision: 1,
        status: 'pending',
        blockedBy,
        deletable: number % 5 === 0,
      };
      team.tasks.push(task);
      this.counts.tasks += 1;
      this.leadToolTurn(team, 'task_create', () =>
        this.teamRecord(team, 'team/task', { task: this.taskSnapshot(task) }),
      );
      return;
    }
    const task = this.pick(open);
    task.revision += 1;
    if (task.deletable) task.status = 'deleted';
    else if (task.status === 'pending') {
      task.status = 'in_progress';
      task.ownerId = this.pick(team.members).id;
    } else task.status = 'completed';
    this.leadToolTurn(team, 'task_update', () => this.teamRecord(team, 'team/task', { task: this.taskSnapshot(task) }));
  }

  private send(team: Team): void {
    const fromLead = this.random.chance(0.5);
    const sender = fromLead ? { id: team.lead.id, name: 'lead' } : this.pick(team.members);
    const targets = team.members.filter((member) => member.id !== sender.id);
    const target = this.pick(targets);
    const body = this.sentence(16);
    if (this.mailboxEra) this.mailboxSend(team, sender, target, body);
    else this.relaySend(team, sender, target, body);
  }

  /** Mailbox era: queued in the Lead log, spliced into the target's inbox, then delivered (one in ten never is). */
  private mailboxSend(
    team: Team,
    sender: { readonly id: string; readonly name: string },
    target: Member,
    body: string,
  ): void {
    const messageId = `team-message-${hex(team.nextMessage, 8)}-${team.lead.id.slice(0, 8)}`;
    team.nextMessage += 1;
    const version = this.recordVersion;
    this.counts.queued += 1;
    this.leadToolTurn(team, 'send_message', () =>
      this.teamRecord(
        team,
        'team/message/queued',
        {
          message: {
            id: messageId,
            senderId: sender.id,
            senderName: sender.name,
            targetId: target.id,
            content: [text(body)],
            ...(version === 1 ? { delivery: 'wakeup' } : {}),
          },
        },
        version,
      ),
    );
    if (this.random.chance(0.1)) return;
    const item: JsonObject = {
      id: `item-${messageId}`,
      role: 'user',
      content: [text(`Team message ${messageId} from ${sender.name}:`), text(body)],
      source: { kind: 'team-message', teamId: team.lead.id, messageId, senderId: sender.id, senderName: sender.name },
    };
    this.splice(target, 'next-turn', item);
    this.counts.delivered += 1;
    this.teamRecord(team, 'team/message/delivered', { messageId, targetId: target.id });
  }

  /** Direct era: only the target's inbox records the message, with its true sender. */
  private relaySend(
    team: Team,
    sender: { readonly id: string; readonly name: string },
    target: Member,
    body: string,
  ): void {
    if (this.time < relayEraStart) this.time = relayEraStart;
    const item: JsonObject = {
      id: `relay-${hex(team.nextMessage, 8)}-${team.lead.id.slice(0, 8)}`,
      role: 'user',
      content: [text(`Team message from ${sender.name}:`), text(body)],
      source: { kind: 'team-relay', form: 'relay', senderSessionId: sender.id, senderName: sender.name },
    };
    team.nextMessage += 1;
    this.counts.relayed += 1;
    this.splice(target, this.random.chance(0.3) ? 'next-step' : 'next-turn', item);
  }

  private splice(target: Member, list: InboxListName, item: JsonObject): void {
    const pending = target.pending[list];
    this.emit(target, 'agent/inbox/spliced', { target: list, start: pending.length, inserted: [item] });
    pending.push(item);
  }

  /** Claim a pending list: one splice removing it all, then each message enters the conversation under its id. */
  private claim(member: Member, list: InboxListName): void {
    const claimed = member.pending[list].splice(0);
    if (claimed.length === 0) return;
    this.emit(member, 'agent/inbox/spliced', { target: list, start: 0, removedCount: claimed.length, inserted: [] });
    claimed.forEach((message) => this.emit(member, 'user/message', message, { surfaceOp: 'append' }));
    this.counts.claimed += claimed.length;
  }

  private memberTurn(team: Team, member: Member): void {
    const turn = (member.turn += 1);
    this.emit(member, 'turn/start', { turn });
    this.claim(member, 'next-turn');
    if (turn === 1) {
      this.emit(
        member,
        'user/message',
        {
          id: `prompt-${member.id.slice(-4)}`,
          role: 'user',
          content: [text(`You are ${member.name} in team ${team.lead.id}.`)],
          source: { kind: 'user' },
        },
        { surfaceOp: 'append' },
      );
    }
    this.emit(member, 'step/start', { turn, step: 1 });
    this.claim(member, 'next-step');
    const callId = `call-${member.seq}`;
    const args = JSON.stringify({ command: `npm test -- ${this.sentence(2)}` });
    this.emit(
      member,
      'assistant/message',
      {
        turn,
        step: 1,
        message: {
          id: `assistant-${member.seq}`,
          role: 'assistant',
          content: [text(this.sentence(30)), { type: 'tool-call', id: callId, name: 'bash', arguments: args }],
          source: { kind: 'model', provider: 'bench', model: 'bench-1' },
        },
      },
      { surfaceOp: 'append' },
    );
    const call = this.emit(member, 'tool/call', { turn, step: 1, callId, name: 'bash', arguments: args });
    this.emit(
      member,
      'tool/result',
      {
        turn,
        step: 1,
        message: {
          id: `tool-${member.seq}`,
          role: 'tool',
          source: { kind: 'tool', callId },
          toolCallId: callId,
          content: [text(this.sentence(12))],
        },
      },
      { sourceEventSeqs: [call], surfaceOp: 'append' },
    );
    this.emit(member, 'step/end', { turn, step: 1 });
    this.emit(member, 'turn/end', { turn, reason: { kind: 'completed' } });
  }
}

/**
 * The corpus, record by record, in write order (a session's records are in seq order; sessions
 * interleave). The same options always give the same records; the return value summarises them.
 */
export function* teamCorpus(options: TeamCorpusOptions): Generator<CorpusRecord, CorpusSummary> {
  const builder = new CorpusBuilder(options);
  builder.start();
  yield* builder.drain();
  for (let step = 0; !builder.done; step += 1) {
    builder.step(step);
    yield* builder.drain();
  }
  return builder.summary();
}
