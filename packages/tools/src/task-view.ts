import * as t from 'io-ts';
import { SessionId, type TeamTaskSnapshot, teamTaskProps } from '@teamlog/events';
import { strictObjectType } from './strict-object-type';

/** A task as a model reads it: the snapshot, with the owner's name beside its id. */
export const TaskView = strictObjectType(teamTaskProps, { owner: t.string, ownerId: SessionId }, 'TaskView');
export type TaskView = t.TypeOf<typeof TaskView>;

export const taskView = (task: TeamTaskSnapshot, nameOf: (sessionId: SessionId) => string): TaskView => ({
  id: task.id,
  revision: task.revision,
  subject: task.subject,
  description: task.description,
  status: task.status,
  blockedBy: task.blockedBy,
  writeScopes: task.writeScopes,
  ...(task.ownerId === undefined ? {} : { owner: nameOf(task.ownerId), ownerId: task.ownerId }),
});

/** One line per task: `task-2 r3 in_progress (owner researcher) Subject [blocked by task-1]`. */
export const taskLine = (task: TaskView): string =>
  [
    `${task.id} r${task.revision} ${task.status}`,
    task.owner === undefined ? '(no owner)' : `(owner ${task.owner})`,
    task.subject,
    task.blockedBy.length === 0 ? '' : `[blocked by ${task.blockedBy.join(', ')}]`,
  ]
    .filter((part) => part !== '')
    .join(' ');
