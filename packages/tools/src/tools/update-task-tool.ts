import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { NonEmptyString, PositiveInteger, type SessionId, type TeamId, type TeamMemberSnapshot } from '@teamlog/events';
import { described } from '../described-type';
import { memberNameOf, resolveMemberAddress } from '../member-address';
import { strictObjectType } from '../strict-object-type';
import { TaskView, taskLine, taskView } from '../task-view';
import { defineTool } from '../team-tool';
import { ToolError } from '../tool-errors';
import {
  BlockedByField,
  DescriptionField,
  StatusField,
  SubjectField,
  TaskIdField,
  WriteScopesField,
} from './task-fields';

export const UpdateTaskArguments = strictObjectType(
  {
    taskId: TaskIdField,
    expectedRevision: described(
      PositiveInteger,
      'The revision you last saw (list_tasks); the update is refused if the task has moved on since.',
    ),
  },
  {
    subject: SubjectField,
    description: DescriptionField,
    status: StatusField,
    owner: described(
      t.union([NonEmptyString, t.null]),
      'The new owner: a member\'s name, a session id, or "lead"; null releases the task.',
    ),
    blockedBy: BlockedByField,
    writeScopes: WriteScopesField,
  },
  'UpdateTaskArguments',
);
type UpdateTaskArguments = t.TypeOf<typeof UpdateTaskArguments>;

export const UpdateTaskResult = strictObjectType({ task: TaskView }, {}, 'UpdateTaskResult');

const ownerChange = (
  owner: string | null | undefined,
  teamId: TeamId,
  roster: readonly TeamMemberSnapshot[],
): { readonly ownerId?: SessionId | null } => {
  if (owner === undefined) return {};
  if (owner === null) return { ownerId: null };
  const resolved = resolveMemberAddress(owner, teamId, roster);
  if (isLeft(resolved)) throw new ToolError(resolved.left);
  return { ownerId: resolved.right };
};

const namesAChange = ({
  taskId: _taskId,
  expectedRevision: _expectedRevision,
  ...changes
}: UpdateTaskArguments): boolean => Object.keys(changes).length > 0;

export const updateTaskTool = defineTool({
  name: 'update_task',
  description:
    'Change a task (status, owner, subject, description, blockers, write scopes) if it is still at the revision you last saw; ' +
    'otherwise nothing is written and you are told its current revision.',
  roles: ['lead', 'member'],
  writes: true,
  input: UpdateTaskArguments,
  output: UpdateTaskResult,
  run: async ({ handle }, args) => {
    if (!namesAChange(args)) throw new ToolError({ code: 'NothingToUpdate', taskId: args.taskId });
    const { taskId, expectedRevision, owner, ...changes } = args;
    const roster = await handle.roster();
    const updated = await handle.updateTask(taskId, {
      expectedRevision,
      ...changes,
      ...ownerChange(owner, handle.teamId, roster),
    });
    const task = taskView(updated, memberNameOf(handle.teamId, roster));
    return { text: `Updated ${taskLine(task)}.`, structured: { task } };
  },
});
