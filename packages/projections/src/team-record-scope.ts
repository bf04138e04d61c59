import { isTeamRecordType, scopeId } from '@teamlog/events';
import type { SessionEvent } from './session-event';

/*
 * A snapshot fixture's placeholder ids (`{{session:2}}`) mean something only inside the fixture's
 * scope (its directory, or its file): the importer records the scope, and the views resolve every
 * id of a Team record in it before the domain's Team fold sees the record. The domain knows no
 * scopes; real logs have none and pass through untouched.
 */

const withTeamId = (data: unknown, scope: string): unknown =>
  typeof data === 'object' && data !== null && typeof (data as { teamId?: unknown }).teamId === 'string'
    ? { ...data, teamId: scopeId((data as { teamId: string }).teamId, scope) }
    : data;

/**
 * A Team record with its ids resolved in the scope; a record its codec refuses gets its team id
 * resolved only (for the foreign-team check). Other events pass unchanged.
 */
export const scopedTeamRecord = (event: SessionEvent, scope: string): SessionEvent => {
  const s = <T extends string>(id: T): T => scopeId(id, scope);
  if (!event.catalog) return isTeamRecordType(event.type) ? { ...event, data: withTeamId(event.data, scope) } : event;
  switch (event.type) {
    case 'team/member': {
      const { data } = event;
      return { ...event, data: { ...data, teamId: s(data.teamId), member: { ...data.member, id: s(data.member.id) } } };
    }
    case 'team/task': {
      const { data } = event;
      const { task } = data;
      return {
        ...event,
        data: {
          ...data,
          teamId: s(data.teamId),
          task: task.ownerId === undefined ? task : { ...task, ownerId: s(task.ownerId) },
        },
      };
    }
    case 'team/message/queued': {
      const { data } = event;
      const ids = { id: s(data.message.id), senderId: s(data.message.senderId), targetId: s(data.message.targetId) };
      // Each version keeps its own message shape (version 1 carries `delivery`).
      return data.version === 1
        ? { ...event, data: { ...data, teamId: s(data.teamId), message: { ...data.message, ...ids } } }
        : { ...event, data: { ...data, teamId: s(data.teamId), message: { ...data.message, ...ids } } };
    }
    case 'team/message/delivered': {
      const { data } = event;
      return {
        ...event,
        data: { ...data, teamId: s(data.teamId), messageId: s(data.messageId), targetId: s(data.targetId) },
      };
    }
    default:
      return event;
  }
};
