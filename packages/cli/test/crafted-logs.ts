import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const header = (id: string) => ({
  type: 'session',
  version: 3,
  id,
  createdAt: 1785000000000,
  cwd: '/crafted',
  isSeeded: false,
  delegationDepth: 0,
});

const member = (teamId: string, seq: number) => ({
  type: 'team/member',
  seq,
  time: 1785000000100 + seq,
  data: {
    version: 2,
    teamId,
    member: {
      id: `${teamId}-child`,
      name: 'reviewer',
      description: 'review',
      provider: 'spawn',
      context: 'fresh',
      phase: 'provisioning',
    },
  },
});

const task = (teamId: string, seq: number, revision: unknown) => ({
  type: 'team/task',
  seq,
  time: 1785000000100 + seq,
  data: {
    version: 2,
    teamId,
    task: {
      id: 'task-1',
      revision,
      subject: 'Review',
      description: 'Review the diff',
      status: 'pending',
      blockedBy: [],
      writeScopes: [],
    },
  },
});

const write = (directory: string, name: string, lines: readonly unknown[]): string => {
  const file = join(directory, name);
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
};

const stepStart = (seq: number, step: unknown) => ({
  type: 'step/start',
  seq,
  time: 1785000000100 + seq,
  data: { turn: 1, step },
});

/** A V3 log whose third line (a step/start) has a string where `data.step` must be a number: the file is refused. */
export const writeBadStepLog = (directory: string): string =>
  write(directory, 'session.v3.jsonl', [header('crafted-cli-bad'), member('crafted-cli-bad', 0), stepStart(1, 'two')]);

/**
 * A V3 Lead log whose third line (a team/task) has a string where `data.task.revision` must be a
 * number: the log opens and the team view reports the record as its failure, as docs/rules.md#team-record-invalid-keeps-log says.
 */
export const writeBadTaskLog = (directory: string): string =>
  write(directory, 'session.v3.jsonl', [
    header('crafted-cli-bad-task'),
    member('crafted-cli-bad-task', 0),
    task('crafted-cli-bad-task', 1, 'two'),
  ]);

/** A sound V3 Lead log with one member and one task. */
export const writeGoodLeadLog = (directory: string, id = 'crafted-cli-good'): string =>
  write(directory, 'session.v3.jsonl', [header(id), member(id, 0), task(id, 1, 1)]);
