import { isLeft } from 'fp-ts/Either';
import {
  type CatalogEventType,
  type JsonValue,
  type MessageId,
  type SessionId,
  type TeamId,
  type WritableEventType,
  decodeCatalogEvent,
  teamIdOf,
  uuidV7Ids,
} from '@teamlog/events';
import { type AppendResult, type EventStore, sessionStream } from '@teamlog/store';

/*
 * A team as the team service writes it (teamlog's own session events, version-2 Team records in the
 * Lead stream, acceptances in each target's stream), for tests until @teamlog/team exports its
 * scripted demo. Every payload is checked against the event catalog before it is appended.
 */

export const atlas = {
  lead: 'atlas-lead' as SessionId,
  reviewer: 'atlas-reviewer' as SessionId,
  writer: 'atlas-writer' as SessionId,
  tester: 'atlas-tester' as SessionId,
  teamId: teamIdOf('atlas-lead' as SessionId),
};

/** After the team-relay era began, so the audit has nothing to say about these sources. */
const baseTime = Date.UTC(2026, 9, 5, 9);

interface Draft {
  readonly type: WritableEventType;
  readonly data: JsonValue;
}

const event = (type: WritableEventType, data: JsonValue): Draft => ({ type, data });

/** Append drafts to a session stream, after checking each against the catalog. */
export const appendSessionEvents = async (
  store: EventStore,
  session: SessionId,
  drafts: readonly Draft[],
  at = baseTime,
): Promise<AppendResult> => {
  for (const draft of drafts) {
    const decoded = decodeCatalogEvent(draft.type as CatalogEventType, draft.data);
    if (isLeft(decoded)) throw new Error(`native team fixture: ${draft.type} does not decode: ${decoded.left.message}`);
  }
  return store.appendToStream(
    sessionStream(session),
    drafts.map((draft, index) => ({
      id: uuidV7Ids.eventId(),
      type: draft.type,
      data: draft.data,
      metadata: { time: at + index * 1000, writerSessionId: session },
    })),
  );
};

export const created = (teamId: TeamId, role: 'lead' | 'member', name: string, parent?: SessionId): Draft =>
  event('teamlog/session/created', {
    teamId,
    role,
    name,
    ...(parent === undefined ? {} : { parentSessionId: parent }),
  });

export const member = (
  name: string,
  id: SessionId,
  phase: 'provisioning' | 'active' | 'failed',
  description: string,
): Draft =>
  event('team/member', {
    version: 2,
    teamId: atlas.teamId,
    member: { id, name, description, provider: 'spawn', context: 'fresh', phase },
  });

const task = (fields: {
  id: string;
  revision: number;
  subject: string;
  status: string;
  ownerId?: SessionId;
  blockedBy?: string[];
}): Draft =>
  event('team/task', {
    version: 2,
    teamId: atlas.teamId,
    task: { description: fields.subject, blockedBy: [], writeScopes: [], ...fields },
  });

export const relayed = (id: string, from: SessionId, senderName: string, text: string) => ({
  id: id as MessageId,
  role: 'user' as const,
  content: [
    { type: 'text', text: `Team message from ${senderName}:` },
    { type: 'text', text },
  ],
  source: { kind: 'team-relay' as const, form: 'relay' as const, senderSessionId: from, senderName },
});

export const accepted = (list: 'next-turn' | 'next-step', message: ReturnType<typeof relayed>): Draft =>
  event('teamlog/inbox/accepted', { teamId: atlas.teamId, list, message });

const claimed = (list: 'next-turn' | 'next-step', ids: string[], turn: number): Draft =>
  event('teamlog/inbox/claimed', { list, messageIds: ids, turn });

export const atlasMessages = {
  review: relayed('atlas-message-1', atlas.lead, 'lead', 'Review src/parser.'),
  findings: relayed('atlas-message-2', atlas.reviewer, 'reviewer', 'Two issues in the tokenizer.'),
  notes: relayed('atlas-message-3', atlas.lead, 'lead', 'Draft the release notes.'),
  hint: relayed('atlas-message-4', atlas.reviewer, 'reviewer', 'Mention the tokenizer fix.'),
};

/**
 * The Lead and two members: the reviewer took the Lead's message and answered (idle now), the
 * writer is inside a turn with one message claimed and one canceled. Four messages, in this order:
 * lead→reviewer, reviewer→lead, lead→writer, reviewer→writer.
 */
export const appendAtlasTeam = async (store: EventStore): Promise<void> => {
  const { lead, reviewer, writer, teamId } = atlas;
  const m = atlasMessages;
  await appendSessionEvents(store, lead, [
    created(teamId, 'lead', 'lead'),
    event('teamlog/session/started', {}),
    member('reviewer', reviewer, 'provisioning', 'Review the parser change'),
    member('reviewer', reviewer, 'active', 'Review the parser change'),
    member('writer', writer, 'provisioning', 'Write the release notes'),
    member('writer', writer, 'active', 'Write the release notes'),
    task({ id: 'task-1', revision: 1, subject: 'Review the parser', status: 'pending' }),
    task({ id: 'task-1', revision: 2, subject: 'Review the parser', status: 'in_progress', ownerId: reviewer }),
    task({ id: 'task-2', revision: 1, subject: 'Write the release notes', status: 'pending', blockedBy: ['task-1'] }),
  ]);
  await appendSessionEvents(
    store,
    reviewer,
    [
      created(teamId, 'member', 'reviewer', lead),
      event('teamlog/session/started', {}),
      accepted('next-turn', m.review),
      event('turn/start', { turn: 1 }),
      claimed('next-turn', [m.review.id], 1),
      event('user/message', m.review),
    ],
    baseTime + 20_000,
  );
  await appendSessionEvents(
    store,
    lead,
    [
      event('turn/start', { turn: 1 }),
      accepted('next-step', m.findings),
      claimed('next-step', [m.findings.id], 1),
      event('user/message', m.findings),
      event('turn/end', { turn: 1, reason: { kind: 'completed' } }),
    ],
    baseTime + 40_000,
  );
  await appendSessionEvents(
    store,
    reviewer,
    [event('turn/end', { turn: 1, reason: { kind: 'completed' } })],
    baseTime + 50_000,
  );
  await appendSessionEvents(
    store,
    writer,
    [
      created(teamId, 'member', 'writer', lead),
      event('teamlog/session/started', {}),
      accepted('next-turn', m.notes),
      event('turn/start', { turn: 1 }),
      claimed('next-turn', [m.notes.id], 1),
      event('user/message', m.notes),
      accepted('next-step', m.hint),
      event('teamlog/inbox/canceled', { list: 'next-step', messageIds: [m.hint.id], reason: 'the turn was aborted' }),
    ],
    baseTime + 60_000,
  );
};
