import { isLeft } from 'fp-ts/Either';
import { MemberAddress, memberNameOf, resolveMemberAddress } from '../member-address';
import { strictObjectType } from '../strict-object-type';
import { TaskView, taskLine, taskView } from '../task-view';
import { defineTool } from '../team-tool';
import { ToolError } from '../tool-errors';
import { BlockedByField, DescriptionField, SubjectField, WriteScopesField } from './task-fields';

export const CreateTaskArguments = strictObjectType(
  { subject: SubjectField },
  { description: DescriptionField, blockedBy: BlockedByField, writeScopes: WriteScopesField, owner: MemberAddress },
  'CreateTaskArguments',
);

export const CreateTaskResult = strictObjectType({ task: TaskView }, {}, 'CreateTaskResult');

export const createTaskTool = defineTool({
  name: 'create_task',
  description:
    "Add a task to the team's task list (status pending, revision 1), optionally with an owner and the tasks it waits for.",
  roles: ['lead', 'member'],
  writes: true,
  input: CreateTaskArguments,
  output: CreateTaskResult,
  run: async ({ handle }, { owner, ...task }) => {
    const roster = await handle.roster();
    const ownerId = owner === undefined ? undefined : resolveMemberAddress(owner, handle.teamId, roster);
    if (ownerId !== undefined && isLeft(ownerId)) throw new ToolError(ownerId.left);
    const created = taskView(
      await handle.createTask({ ...task, ...(ownerId === undefined ? {} : { ownerId: ownerId.right }) }),
      memberNameOf(handle.teamId, roster),
    );
    return { text: `Created ${taskLine(created)}.`, structured: { task: created } };
  },
});
