import { createWriteStream, promises as fs } from 'node:fs';
import { join } from 'node:path';

/*
 * One big historical Lead log of the mailbox era, the shape docs/benchmarks.md measures replay on: tens of
 * members, most of the log Team records (member snapshots, task snapshots, and queued and delivered
 * mailbox records, which the Team fold checks and folds one by one), the rest the Lead's own turns.
 * Valid by the Team rules (docs/rules.md): every message is queued once, to an active member, and
 * delivered at most once, after it was queued.
 */

export interface BigLeadLogOptions {
  /** Stop after the turn that brings the log to at least this many events. */
  readonly events: number;
  readonly members: number;
}

export interface BigLeadLog {
  readonly file: string;
  readonly events: number;
  readonly bytes: number;
  /** Queued and delivered records together. */
  readonly mailboxRecords: number;
  readonly taskRecords: number;
}

/** Mailbox-era records (docs/rules.md#era-rules): the log starts 2026-09-01 and ticks 1 ms per event. */
const start = Date.UTC(2026, 8, 1);
const leadId = 'be1a0000-0000-4000-8000-000000000000';
const memberId = (index: number): string => `be1a0000-0000-4000-8000-${(index + 1).toString(16).padStart(12, '0')}`;
/** Sends per Lead turn: most of the log is mailbox records, as in a busy harness. */
const sendsPerTurn = 4;
const flushBytes = 1024 * 1024;

class LogWriter {
  private pending: string[] = [];
  private pendingBytes = 0;
  bytes = 0;
  seq = 0;

  constructor(private readonly out: ReturnType<typeof createWriteStream>) {}

  async line(value: object): Promise<void> {
    const text = `${JSON.stringify(value)}\n`;
    this.pending.push(text);
    this.pendingBytes += text.length;
    this.bytes += Buffer.byteLength(text);
    if (this.pendingBytes >= flushBytes) await this.flush();
  }

  async event(type: string, data: object, envelope: object = {}): Promise<number> {
    const seq = this.seq;
    this.seq += 1;
    await this.line({ type, seq, time: start + seq, data, ...envelope });
    return seq;
  }

  flush(): Promise<void> {
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    return new Promise((resolve, reject) =>
      this.out.write(chunk, (error) => (error === null || error === undefined ? resolve() : reject(error))),
    );
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) =>
      this.out.end((error?: Error | null) => (error === null || error === undefined ? resolve() : reject(error))),
    );
  }
}

/** Write the log under `directory/big-lead/session.v4.jsonl`. */
export const writeBigLeadLog = async (directory: string, options: BigLeadLogOptions): Promise<BigLeadLog> => {
  const file = join(directory, 'big-lead', 'session.v4.jsonl');
  await fs.mkdir(join(directory, 'big-lead'), { recursive: true });
  const log = new LogWriter(createWriteStream(file));
  let turn = 0;
  let mailboxRecords = 0;
  let taskRecords = 0;
  let nextMessage = 1;
  let nextTask = 1;
  const teamRecord = (type: string, version: 1 | 2, payload: object) =>
    log.event(type, { version, teamId: leadId, ...payload });
  /** One Lead turn calling `tool`, its records between the call and its result. */
  const toolTurn = async (tool: string, records: () => Promise<unknown>): Promise<void> => {
    turn += 1;
    await log.event('turn/start', { turn });
    await log.event('step/start', { turn, step: 1 });
    const callId = `call-${log.seq}`;
    const args = JSON.stringify({ tool });
    await log.event(
      'assistant/message',
      {
        turn,
        step: 1,
        message: {
          id: `assistant-${log.seq}`,
          role: 'assistant',
          content: [
            { type: 'text', text: `calling ${tool}` },
            { type: 'tool-call', id: callId, name: tool, arguments: args },
          ],
          source: { kind: 'model', provider: 'bench', model: 'bench-1' },
        },
      },
      { surfaceOp: 'append' },
    );
    const call = await log.event('tool/call', { turn, step: 1, callId, name: tool, arguments: args });
    await records();
    await log.event(
      'tool/result',
      {
        turn,
        step: 1,
        message: {
          id: `tool-${log.seq}`,
          role: 'tool',
          source: { kind: 'tool', callId },
          toolCallId: callId,
          content: [{ type: 'text', text: 'ok' }],
        },
      },
      { sourceEventSeqs: [call], surfaceOp: 'append' },
    );
    await log.event('step/end', { turn, step: 1 });
    await log.event('turn/end', { turn, reason: { kind: 'completed' } });
  };

  await log.line({
    type: 'session',
    version: 4,
    id: leadId,
    createdAt: start,
    cwd: '/bench/project',
    isSeeded: false,
    delegationDepth: 0,
  });
  for (let index = 0; index < options.members; index += 1) {
    const snapshot = {
      id: memberId(index),
      name: `worker-${index + 1}`,
      description: `worker ${index + 1}`,
      provider: 'spawn',
      context: 'fresh',
    };
    await toolTurn('spawn_teammate', async () => {
      await teamRecord('team/member', 1, { member: { ...snapshot, phase: 'provisioning' } });
      await teamRecord('team/member', 1, { member: { ...snapshot, phase: 'active' } });
    });
  }
  for (let round = 0; log.seq < options.events; round += 1) {
    // The first half of the log writes version-1 records (with `delivery`), the rest version 2.
    const version: 1 | 2 = log.seq < options.events / 2 ? 1 : 2;
    if (round % 8 === 7) {
      const id = `task-${nextTask}`;
      nextTask += 1;
      const task = { id, subject: `${id} subject`, description: `do ${id}`, blockedBy: [], writeScopes: ['packages/'] };
      await toolTurn('task_create', () =>
        teamRecord('team/task', version, { task: { ...task, revision: 1, status: 'pending' } }),
      );
      await toolTurn('task_update', () =>
        teamRecord('team/task', version, {
          task: { ...task, revision: 2, status: 'in_progress', ownerId: memberId(round % options.members) },
        }),
      );
      taskRecords += 2;
      continue;
    }
    await toolTurn('send_message', async () => {
      for (let send = 0; send < sendsPerTurn; send += 1) {
        const messageId = `team-message-${nextMessage.toString(16).padStart(8, '0')}`;
        nextMessage += 1;
        const target = memberId((round * sendsPerTurn + send) % options.members);
        const content = [{ type: 'text', text: `please look at ${messageId}` }];
        await teamRecord('team/message/queued', version, {
          message: {
            id: messageId,
            senderId: leadId,
            senderName: 'lead',
            targetId: target,
            content,
            ...(version === 1 ? { delivery: 'wakeup' } : {}),
          },
        });
        mailboxRecords += 1;
        // One in ten is never delivered: the legacy mailbox view shows it undelivered.
        if (nextMessage % 10 === 0) continue;
        await teamRecord('team/message/delivered', version, { messageId, targetId: target });
        mailboxRecords += 1;
      }
    });
  }
  await log.close();
  return { file, events: log.seq, bytes: log.bytes, mailboxRecords, taskRecords };
};
