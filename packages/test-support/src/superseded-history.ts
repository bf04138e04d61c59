import { randomUUID } from 'node:crypto';
import type { EventId } from '@teamlog/events';
import { type EventStore, sessionStream } from '@teamlog/store';
import {
  type LogEvent,
  appendHeader,
  appendSession,
  mailboxItem,
  member,
  queued,
  relayItem,
  sid,
  splice,
  task,
  userMessage,
} from './session-log-builder';

/*
 * A Lead and a member whose logs a follower imported at V3 and then saw superseded by a renumbered
 * V4 (docs/rules.md#import-superseded). The later generation has fewer members, tasks, legacy
 * messages, inbox entries and held ids than the earlier one: rows of the earlier one a view store
 * kept would show.
 */

const time = Date.UTC(2026, 6, 20);
const at = (event: LogEvent, index: number): LogEvent => ({ ...event, time: time + index * 1000 });

const earlier: Record<string, readonly LogEvent[]> = {
  'lead-1': [
    member(2, 'lead-1', 'm-a', 'alpha', 'provisioning'),
    member(2, 'lead-1', 'm-a', 'alpha', 'active'),
    member(2, 'lead-1', 'm-b', 'beta', 'provisioning'),
    member(2, 'lead-1', 'm-c', 'gamma', 'provisioning'),
    task(2, 'lead-1', 'task-1', 1),
    task(2, 'lead-1', 'task-2', 1),
    task(2, 'lead-1', 'task-3', 1),
    queued(2, 'lead-1', 'msg-1', 'lead-1', 'lead', 'm-a'),
    queued(2, 'lead-1', 'msg-2', 'lead-1', 'lead', 'm-b'),
    splice('next-turn', 0, [relayItem('r-1', 'm-a', 'alpha')]),
    splice('next-turn', 1, [relayItem('r-2', 'm-b', 'beta')]),
    splice('next-step', 0, [relayItem('r-3', 'm-a', 'alpha')]),
  ].map(at),
  // The member held the Lead's message: its legacy status is delivered while this generation stands.
  'm-a': [
    userMessage(mailboxItem('lead-1', 'msg-1', 'lead-1', 'lead', 'item-1')),
    splice('next-turn', 0, [relayItem('r-9', 'lead-1', 'lead')]),
  ].map(at),
};

const later: Record<string, readonly LogEvent[]> = {
  'lead-1': [
    member(2, 'lead-1', 'm-a', 'alpha', 'provisioning'),
    member(2, 'lead-1', 'm-a', 'alpha', 'active'),
    task(2, 'lead-1', 'task-1', 1),
    queued(2, 'lead-1', 'msg-1', 'lead-1', 'lead', 'm-a'),
    splice('next-turn', 0, [relayItem('r-1', 'm-a', 'alpha')]),
    // A task that blocks itself: the Team's failure, at a seq the earlier generation holds another record at.
    task(2, 'lead-1', 'task-2', 1, { blockedBy: ['task-2'] }),
  ].map(at),
  'm-a': [splice('next-step', 0, [relayItem('r-8', 'lead-1', 'lead')])].map(at),
};

export const supersededSessions = Object.keys(earlier);

/** The earlier generation of every session: its V3 header and events. */
export const appendEarlierGenerations = async (store: EventStore): Promise<void> => {
  for (const [id, events] of Object.entries(earlier)) {
    await appendHeader(store, id, 3);
    await appendSession(store, id, events);
  }
};

/** The later generation of one session, after the record that supersedes the earlier one (as the follower writes it). */
export const supersede = async (store: EventStore, id: string): Promise<void> => {
  const stream = sessionStream(sid(id));
  const stored = await store.streamRevision(stream);
  await store.appendToStream(
    stream,
    [
      {
        id: randomUUID() as EventId,
        type: 'teamlog/import/superseded',
        data: { file: `${id}/session.v3.jsonl`, by: `${id}/session.v4.jsonl`, formatVersion: 4 },
      },
    ],
    { expectedRevision: stored ?? 'no_stream' },
  );
  await appendHeader(store, id, 4);
  await appendSession(store, id, later[id] ?? []);
};

/** The later generations alone, as a one-shot replay of the final files stores them. */
export const appendLaterGenerations = async (store: EventStore): Promise<void> => {
  for (const [id, events] of Object.entries(later)) {
    await appendHeader(store, id, 4);
    await appendSession(store, id, events);
  }
};
