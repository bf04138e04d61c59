import {
  type IdSource,
  type SessionId,
  type TaskId,
  type TaskStatus,
  type UserMessage,
  uuidV7Ids,
} from '@teamlog/events';
import type { EventStore } from '@teamlog/store';
import { type TeamSession, isTeamLogError } from '@teamlog/team';
import type { DemoSummary } from './demo-summary';
import { Gate } from './gate';
import { bodyOf, senderNameOf } from './relayed-text';
import { type Reaction, ScriptedHost, type TurnContext } from './scripted-host';

/** Compare-and-set from what the session reads now: the demo never holds a stale revision. */
const advanceTask = async (session: TeamSession, taskId: TaskId, status: TaskStatus): Promise<void> => {
  const task = (await session.tasks()).find((candidate) => candidate.id === taskId);
  if (task === undefined) throw new Error(`demo task ${taskId} is missing`);
  await session.updateTask(taskId, { expectedRevision: task.revision, status, ownerId: session.sessionId });
};

const each = async (
  messages: readonly UserMessage[],
  act: (text: string, from: string | undefined) => Promise<void>,
): Promise<void> => {
  for (const message of messages) await act(bodyOf(message), senderNameOf(message));
};

interface DemoTasks {
  research: TaskId;
  implement: TaskId;
  review: TaskId;
}

/** Steps are fixed by gates, not timing: the researcher steers only while the implementer is inside a step. */
const scripts = (tasks: DemoTasks, lead: { summary: string }) => {
  const drafting = new Gate('the implementer is drafting');
  const steered = new Gate('the researcher has steered the implementer');
  const reports = new Map<string, string>();

  const researcher: Reaction = (turn, messages) =>
    each(messages, async (text) => {
      if (text.startsWith('Research')) {
        await turn.step(() => advanceTask(turn.session, tasks.research, 'in_progress'));
        await drafting.opened;
        await turn.step(async () => {
          await turn.session.send({
            target: 'implementer',
            message: 'Use the streaming parser: it keeps memory flat on big logs.',
          });
          turn.note('steered the implementer while it was running');
          await advanceTask(turn.session, tasks.research, 'completed');
        });
        steered.open();
        await turn.session.send({ target: 'lead', message: 'Research done: the streaming parser fits.' });
      } else if (text.startsWith('Follow-up')) {
        await turn.step(() =>
          turn.session
            .send({ target: 'lead', message: 'Follow-up: the parser also handles torn tails.' })
            .then(() => undefined),
        );
      }
    });

  const implementer: Reaction = (turn, messages) =>
    each(messages, async (text) => {
      if (!text.startsWith('Implement')) return;
      await turn.step(async () => {
        turn.note('drafting the importer (step 1 stays open)');
        drafting.open();
        await steered.opened;
      });
      const advice = await turn.step(async (claimed) => {
        turn.note(`applying ${claimed.length} steered message(s) at step 2`);
        await advanceTask(turn.session, tasks.implement, 'in_progress');
        await advanceTask(turn.session, tasks.implement, 'completed');
      });
      const by = advice.map((message) => senderNameOf(message)).join(', ');
      await turn.session.send({
        target: 'lead',
        message: `Implementation done, steered by ${by === '' ? 'nobody' : by}.`,
      });
    });

  const reviewer: Reaction = (turn, messages) =>
    each(messages, async (text) => {
      if (text.startsWith('Stand by')) turn.note('standing by (resident)');
      if (!text.startsWith('Review')) return;
      await turn.step(async () => {
        await advanceTask(turn.session, tasks.review, 'in_progress');
        await advanceTask(turn.session, tasks.review, 'completed');
      });
      await turn.session.send({ target: 'lead', message: 'Review passed.' });
    });

  const leadReaction: Reaction = (turn, messages) =>
    each(messages, async (text, from) => {
      if (from === undefined) return;
      reports.set(from, text);
      turn.note(`read the report of ${from}`);
      if (lead.summary === '' && reports.has('researcher') && reports.has('implementer')) {
        await turn.step(() => {
          lead.summary = `researcher: ${reports.get('researcher') ?? ''} | implementer: ${reports.get('implementer') ?? ''}`;
          turn.note('summarised the researcher and the implementer');
        });
      }
    });

  return { researcher, implementer, reviewer, leadReaction };
};

/** The demo team's readable name (the dashboard shows it instead of the id). */
export const demoTeamName = 'teamlog demo';

/**
 * The scripted team of `teamlog demo`: a Lead with a researcher, an implementer and a reviewer on
 * the real engine and the given store. It shows a steer into a running member, a wake of an idle
 * resident member, a cold resume of an evicted member, a refused send to a killed member, and
 * tasks with dependencies.
 */
export const runDemo = async (
  store: EventStore,
  ids: IdSource = uuidV7Ids,
  clock: () => Date = () => new Date(),
): Promise<DemoSummary> => {
  const host = new ScriptedHost({ store, ids, clock });
  const tasks: DemoTasks = { research: 'task-1' as TaskId, implement: 'task-2' as TaskId, review: 'task-3' as TaskId };
  const leadState = { summary: '' };
  const script = scripts(tasks, leadState);
  const rejected: Array<DemoSummary['rejected'][number]> = [];

  const lead = await host.createLead(script.leadReaction, { name: demoTeamName });
  const researcher = await host.spawn(
    lead,
    { name: 'researcher', description: 'finds the approach' },
    script.researcher,
  );
  const implementer = await host.spawn(
    lead,
    { name: 'implementer', description: 'builds the importer' },
    script.implementer,
  );
  const reviewer = await host.spawn(lead, { name: 'reviewer', description: 'reviews the change' }, script.reviewer);

  const leadTurn = (work: (turn: TurnContext) => Promise<void>) =>
    host.turn(lead.sessionId, (turn) => turn.step(() => work(turn)).then(() => undefined));

  await leadTurn(async () => {
    const research = await lead.createTask({ subject: 'Research the log format', writeScopes: ['notes/'] });
    const implement = await lead.createTask({
      subject: 'Implement the importer',
      blockedBy: [research.id],
      writeScopes: ['src/'],
    });
    const review = await lead.createTask({ subject: 'Review the importer', blockedBy: [implement.id] });
    Object.assign(tasks, { research: research.id, implement: implement.id, review: review.id });
    await lead.send({ target: 'reviewer', message: 'Stand by: you review once the importer exists.' });
    await lead.send({ target: 'researcher', message: 'Research how the logs are framed.' });
    await lead.send({ target: 'implementer', message: 'Implement the importer.' });
  });
  await host.settle();

  await host.evict(researcher.sessionId);
  await leadTurn(async () => {
    await lead.send({ target: 'researcher', message: 'Follow-up: does the parser handle torn tails?' });
    await lead.send({ target: 'reviewer', message: 'Review the importer (task-2 is done).' });
  });
  await host.settle();

  await host.kill(reviewer.sessionId);
  await leadTurn(async () => {
    try {
      await lead.send({ target: 'reviewer', message: 'Thanks, one more look?' });
    } catch (error) {
      rejected.push({
        from: 'lead',
        to: 'reviewer',
        error: isTeamLogError(error) ? error.code : error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
  await host.settle();

  const summary = await summarise(host, lead, [researcher, implementer, reviewer], rejected, leadState.summary);
  await host.dispose();
  return summary;
};

const summarise = async (
  host: ScriptedHost,
  lead: TeamSession,
  members: readonly TeamSession[],
  rejected: DemoSummary['rejected'],
  leadSummary: string,
): Promise<DemoSummary> => {
  const names = new Map<SessionId, string>([
    [lead.sessionId, lead.name],
    ...members.map((member) => [member.sessionId, member.name] as const),
  ]);
  const nameOf = (id: SessionId) => names.get(id) ?? id;
  const sessions = new Map(
    await Promise.all(
      [lead, ...members].map(
        async (session) => [session.sessionId, await host.teamlog.session(session.sessionId)] as const,
      ),
    ),
  );
  const outcome = (target: SessionId, id: string) =>
    sessions.get(target)?.inbox.find((entry) => entry.id === id)?.status ?? 'pending';
  return {
    teamId: lead.teamId,
    members: members.map((member) => {
      const session = sessions.get(member.sessionId);
      return {
        name: member.name,
        sessionId: member.sessionId,
        status: session?.status ?? 'not-started',
        ...(session?.closeReason === undefined ? {} : { closeReason: session.closeReason }),
        turns: session?.turn ?? 0,
      };
    }),
    tasks: (await lead.tasks()).map((task) => ({
      id: task.id,
      subject: task.subject,
      status: task.status,
      revision: task.revision,
      ...(task.ownerId === undefined ? {} : { owner: nameOf(task.ownerId) }),
      blockedBy: [...task.blockedBy],
    })),
    messages: host.notices.map((notice) => ({
      id: notice.messageId,
      from: nameOf(notice.sender),
      to: nameOf(notice.target),
      delivery: notice.delivery,
      outcome: outcome(notice.target, notice.messageId),
    })),
    rejected,
    leadSummary,
    transcript: [...host.transcript],
  };
};
