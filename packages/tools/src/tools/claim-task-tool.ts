import { isLeft } from 'fp-ts/Either';
import { memberNameOf } from '../member-address';
import { strictObjectType } from '../strict-object-type';
import { decideTaskClaim } from '../task-claim';
import { TaskView, taskLine, taskView } from '../task-view';
import { defineTool } from '../team-tool';
import { ToolError } from '../tool-errors';
import { TaskIdField } from './task-fields';

export const ClaimTaskArguments = strictObjectType({ taskId: TaskIdField }, {}, 'ClaimTaskArguments');

export const ClaimTaskResult = strictObjectType({ task: TaskView }, {}, 'ClaimTaskResult');

export const claimTaskTool = defineTool({
  name: 'claim_task',
  description:
    'Take a task: you become its owner and it goes in_progress, unless someone else owns it, it is finished, or a task it waits for is not completed. ' +
    'If the task changes while you claim it, nothing is written and you are told to list the tasks again.',
  roles: ['lead', 'member'],
  writes: true,
  input: ClaimTaskArguments,
  output: ClaimTaskResult,
  run: async ({ handle }, { taskId }) => {
    const tasks = await handle.tasks();
    const roster = await handle.roster();
    const nameOf = memberNameOf(handle.teamId, roster);
    const claim = decideTaskClaim(taskId, tasks, handle.sessionId, nameOf);
    if (isLeft(claim)) throw new ToolError(claim.left);
    if (claim.right.kind === 'already-yours') {
      const task = taskView(claim.right.task, nameOf);
      return { text: `You already own ${taskLine(task)}; nothing changed.`, structured: { task } };
    }
    const task = taskView(await handle.updateTask(taskId, claim.right.update), nameOf);
    return { text: `You claimed ${taskLine(task)}.`, structured: { task } };
  },
});
