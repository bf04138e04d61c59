import * as t from 'io-ts';
import { TaskId, TaskStatus } from '@teamlog/events';
import { TaskDescriptionText, TaskSubjectText, WriteScopeText } from '../bounded-text';
import { described } from '../described-type';

/* The task fields the task tools share, each with the sentence a model reads. */

export const TaskIdField = described(TaskId, 'The task id, as list_tasks shows it (e.g. "task-3").');
export const SubjectField = described(TaskSubjectText, 'A short title of the work.');
export const DescriptionField = described(TaskDescriptionText, 'What done looks like.');
export const BlockedByField = described(
  t.readonlyArray(TaskId),
  'Ids of tasks that must be completed first (no cycles).',
);
export const WriteScopesField = described(t.readonlyArray(WriteScopeText), 'The files or areas the work writes to.');
export const StatusField = described(TaskStatus, 'pending, in_progress, completed, or deleted.');
