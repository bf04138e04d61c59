import * as fc from 'fast-check';
import type { TaskId } from '@teamlog/events';
import { taskNumber } from '@teamlog/domain';

/** The rule as docs/rules.md states it: `task-<digits>`, the number a safe integer. */
const byPattern = (id: string): number | 'not-numeric' | 'unsafe' => {
  const match = /^task-(\d+)$/.exec(id);
  if (match === null) return 'not-numeric';
  const n = Number(match[1]);
  return Number.isSafeInteger(n) ? n : 'unsafe';
};

describe('task numbers', () => {
  it('read task-<digits> ids as the pattern does, digit by digit', () => {
    const ids = fc.oneof(
      fc.string(),
      fc.stringMatching(/^task-\d{0,20}$/),
      fc.stringMatching(/^task-[0-9a-z ]{0,6}$/),
      fc.constantFrom('task-', 'task-007', 'task-9007199254740991', 'task-9007199254740992', 'Task-1', 'task-1 '),
    );
    fc.assert(
      fc.property(ids, (id) => {
        expect(taskNumber(id as TaskId)).toEqual(byPattern(id));
      }),
      { seed: 20261202, numRuns: 2000 },
    );
  });
});
