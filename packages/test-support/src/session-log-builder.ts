import { randomUUID } from 'node:crypto';
import type { EventId, JsonValue, SessionId } from '@teamlog/events';
import { type EventStore, type GlobalPosition, sessionHeaderStream, sessionStream } from '@teamlog/store';

/* Sessions in the shape the importer stores them: stream `session-<id>`, revision = seq, metadata {time}. */

export interface LogEvent {
  readonly type: string;
  readonly data: unknown;
  readonly time?: number;
}

export const ev = (type: string, data: unknown, time?: number): LogEvent => ({
  type,
  data,
  ...(time === undefined ? {} : { time }),
});

export const sid = (id: string): SessionId => id as SessionId;

const toAppend = (event: LogEvent, time: number, normalised: boolean) => ({
  id: randomUUID() as EventId,
  type: event.type,
  data: event.data as JsonValue,
  metadata: { time: event.time ?? time, ...(normalised ? { normalised: true } : {}) } as JsonValue,
});

/** Append events to a session stream (after what it holds); returns the last position. */
export const appendSession = async (
  store: EventStore,
  id: string,
  events: readonly LogEvent[],
  options: { readonly startTime?: number; readonly normalised?: boolean } = {},
): Promise<GlobalPosition> => {
  const start = options.startTime ?? Date.UTC(2026, 6, 20);
  const stored = await store.streamRevision(sessionStream(sid(id)));
  const first = stored === undefined ? 0 : Number(stored) + 1;
  const result = await store.appendToStream(
    sessionStream(sid(id)),
    events.map((event, index) => toAppend(event, start + (first + index) * 1000, options.normalised ?? false)),
    { expectedRevision: stored ?? 'no_stream' },
  );
  return result.position;
};

export const appendHeader = async (
  store: EventStore,
  id: string,
  formatVersion: number,
  extra: { readonly header?: Record<string, unknown>; readonly scope?: string; readonly normalised?: boolean } = {},
): Promise<GlobalPosition> => {
  const data = {
    header: {
      type: 'session',
      version: formatVersion,
      id,
      createdAt: Date.UTC(2026, 6, 20),
      delegationDepth: 0,
      ...(extra.header ?? {}),
    },
    formatVersion,
    ...(extra.scope === undefined ? {} : { scope: extra.scope }),
    ...(extra.normalised === undefined ? {} : { normalised: extra.normalised }),
  };
  const result = await store.appendToStream(sessionHeaderStream(sid(id)), [
    { id: randomUUID() as EventId, type: 'teamlog/session/header', data },
  ]);
  return result.position;
};

/* Event builders, shapes as in docs/rules.md#team-record-payloads and docs/rules.md#inbox-splices. */

export const text = (value: string) => ({ type: 'text', text: value });

export const member = (
  version: number,
  teamId: string,
  id: string,
  name: string,
  phase: string,
  extra: Record<string, unknown> = {},
) =>
  ev('team/member', {
    version,
    teamId,
    member: { id, name, description: `${name} work`, provider: 'spawn', context: 'fresh', phase, ...extra },
  });

export const task = (
  version: number,
  teamId: string,
  id: string,
  revision: number,
  extra: Record<string, unknown> = {},
) =>
  ev('team/task', {
    version,
    teamId,
    task: {
      id,
      revision,
      subject: id,
      description: `do ${id}`,
      status: 'pending',
      blockedBy: [],
      writeScopes: [],
      ...extra,
    },
  });

export const queued = (
  version: 1 | 2,
  teamId: string,
  id: string,
  senderId: string,
  senderName: string,
  targetId: string,
  extra: Record<string, unknown> = {},
) =>
  ev('team/message/queued', {
    version,
    teamId,
    message: {
      id,
      senderId,
      senderName,
      targetId,
      content: [text('hello')],
      ...(version === 1 ? { delivery: 'wakeup' } : {}),
      ...extra,
    },
  });

export const delivered = (version: 1 | 2, teamId: string, messageId: string, targetId: string) =>
  ev('team/message/delivered', { version, teamId, messageId, targetId });

export const mailboxItem = (
  teamId: string,
  messageId: string,
  senderId: string,
  senderName: string,
  itemId = `item-${messageId}`,
  headerId = messageId,
) => ({
  id: itemId,
  role: 'user',
  content: [text(`Team message ${headerId} from ${senderName}:`), text('hello')],
  source: { kind: 'team-message', teamId, messageId, senderId, senderName },
});

export const relayItem = (
  id: string,
  senderSessionId: string,
  senderName: string,
  header: string | null = `Team message from ${senderName}:`,
) => ({
  id,
  role: 'user',
  content: [...(header === null ? [] : [text(header)]), text('hello')],
  source: { kind: 'team-relay', form: 'relay', senderSessionId, senderName },
});

export const agentMessageItem = (id: string, senderSessionId: string) => ({
  id,
  role: 'user',
  content: [text('continue')],
  source: { kind: 'agent-message', form: 'relay', senderSessionId },
});

export const promptItem = (id: string) => ({ id, role: 'user', content: [text('do it')], source: { kind: 'user' } });

export const splice = (
  target: 'next-turn' | 'next-step',
  start: number,
  inserted: readonly unknown[],
  extra: Record<string, unknown> = {},
) => ev('agent/inbox/spliced', { target, start, inserted, ...extra });

export const claim = (target: 'next-turn' | 'next-step', removedCount: number, extra: Record<string, unknown> = {}) =>
  ev('agent/inbox/spliced', { target, start: 0, removedCount, inserted: [], ...extra });

export const userMessage = (message: unknown) => ev('user/message', message);
export const turnStart = (turn: number) => ev('turn/start', { turn });
export const turnEnd = (turn: number) => ev('turn/end', { turn, reason: { kind: 'completed' } });
