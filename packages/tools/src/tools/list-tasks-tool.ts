import * as t from 'io-ts';
import { memberNameOf } from '../member-address';
import { strictObjectType } from '../strict-object-type';
import { TaskView, taskLine, taskView } from '../task-view';
import { defineTool } from '../team-tool';
import { StatusField } from './task-fields';

export const ListTasksArguments = strictObjectType({}, { status: StatusField }, 'ListTasksArguments');

export const ListTasksResult = strictObjectType({ tasks: t.readonlyArray(TaskView) }, {}, 'ListTasksResult');

export const listTasksTool = defineTool({
  name: 'list_tasks',
  description:
    "List the team's tasks with revision, status, owner and blockers; deleted tasks only when asked for by status.",
  roles: ['lead', 'member'],
  writes: false,
  input: ListTasksArguments,
  output: ListTasksResult,
  run: async ({ handle }, { status }) => {
    const nameOf = memberNameOf(handle.teamId, await handle.roster());
    const tasks = (await handle.tasks())
      .filter((task) => (status === undefined ? task.status !== 'deleted' : task.status === status))
      .map((task) => taskView(task, nameOf));
    const text = tasks.length === 0 ? 'No tasks.' : tasks.map(taskLine).join('\n');
    return { text, structured: { tasks } };
  },
});
