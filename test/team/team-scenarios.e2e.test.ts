import type { MessageId, TaskId, UserMessage } from '@teamlog/events';
import { Gate, type Reaction, ScriptedHost, bodyOf, senderNameOf } from '@teamlog/scripted-host';
import {
  describeOn,
  isAcceptanceOf,
  isConversationCopyOf,
  revisionOf,
  scenarioBackends,
  streamOf,
} from './scenario-store';

/* End-to-end scenarios: scripted sessions on the real engine and a real store (a SQLite file; a PostgreSQL database; EventStoreDB when EVENTSTORE_URL is set). */

const quiet: Reaction = async () => undefined;

const completeTask = async (
  session: {
    tasks: () => Promise<readonly { id: TaskId; revision: number }[]>;
    updateTask: (id: TaskId, update: { expectedRevision: number; status: 'completed' }) => Promise<unknown>;
  },
  id: TaskId,
) => {
  const task = (await session.tasks()).find((candidate) => candidate.id === id);
  await session.updateTask(id, { expectedRevision: task?.revision ?? 0, status: 'completed' });
};

for (const backend of scenarioBackends)
  describeOn(backend, 'team scenarios', () => {
    it('a running implementer is steered by the researcher at its next step, and both finish before the Lead summarises', async () => {
      const scenario = await backend.open();
      const host = new ScriptedHost(scenario);
      const drafting = new Gate('implementer inside step 1');
      const steered = new Gate('researcher sent its steer');
      const reports = new Set<string>();
      const summary: { at?: number; reportsSeen?: string[] } = {};
      let steerId: MessageId | undefined;

      const lead = await host.createLead(async (turn, messages) => {
        messages.forEach((message) => reports.add(senderNameOf(message) ?? '?'));
        if (summary.at === undefined && reports.has('researcher') && reports.has('implementer')) {
          summary.at = (await host.teamlog.session(turn.session.sessionId)).revision;
          summary.reportsSeen = [...reports].sort();
        }
      });
      const researcher = await host.spawn(lead, { name: 'researcher', description: 'research' }, async (turn) => {
        await drafting.opened;
        await turn.step(async () => {
          steerId = await turn.session.send({ target: 'implementer', message: 'Use the streaming parser.' });
          await completeTask(turn.session, 'task-1' as TaskId);
        });
        steered.open();
        await turn.session.send({ target: 'lead', message: 'research done' });
      });
      const implementer = await host.spawn(lead, { name: 'implementer', description: 'implement' }, async (turn) => {
        await turn.step(async () => {
          drafting.open();
          await steered.opened;
        });
        const claimed = await turn.step(() => completeTask(turn.session, 'task-2' as TaskId));
        await turn.session.send({ target: 'lead', message: `done with ${claimed.map(bodyOf).join(' ')}` });
      });

      await host.turn(lead.sessionId, async (turn) => {
        await turn.step(async () => {
          const research = await lead.createTask({ subject: 'research' });
          await lead.createTask({ subject: 'implement', blockedBy: [research.id] });
          await lead.send({ target: 'researcher', message: 'research' });
          await lead.send({ target: 'implementer', message: 'implement' });
        });
      });
      await host.settle();

      const events = await streamOf(scenario.store, implementer.sessionId);
      const id = steerId as MessageId;
      const accepted = events.find(isAcceptanceOf(id));
      expect(accepted?.data).toMatchObject({
        list: 'next-step',
        message: { source: { senderSessionId: researcher.sessionId, senderName: 'researcher' } },
      });
      // Accepted while step 1 was open, claimed when step 2 started, then in the conversation with the same id.
      const stepOneStart = revisionOf(
        events,
        (event) => event.type === 'step/start' && (event.data as { step: number }).step === 1,
      );
      const stepOneEnd = revisionOf(
        events,
        (event) => event.type === 'step/end' && (event.data as { step: number }).step === 1,
      );
      const stepTwoStart = revisionOf(
        events,
        (event) => event.type === 'step/start' && (event.data as { step: number }).step === 2,
      );
      expect(Number(accepted?.revision)).toBeGreaterThan(stepOneStart);
      expect(Number(accepted?.revision)).toBeLessThan(stepOneEnd);
      expect(events[stepTwoStart + 1]?.data).toEqual({ list: 'next-step', messageIds: [id], turn: 1, step: 2 });
      expect(revisionOf(events, isConversationCopyOf(id))).toBe(stepTwoStart + 2);

      expect(summary.reportsSeen).toEqual(['implementer', 'researcher']);
      const leadEvents = (await streamOf(scenario.store, lead.sessionId)).filter(
        (event) => Number(event.revision) <= (summary.at ?? -1),
      );
      const completed = leadEvents.filter(
        (event) =>
          event.type === 'team/task' && (event.data as { task: { status: string } }).task.status === 'completed',
      );
      expect(completed.map((event) => (event.data as { task: { id: string } }).task.id).sort()).toEqual([
        'task-1',
        'task-2',
      ]);
      expect(
        leadEvents
          .filter((event) => event.type === 'user/message')
          .map((event) => senderNameOf(event.data as UserMessage))
          .sort(),
      ).toEqual(['implementer', 'researcher']);
      await host.dispose();
      await scenario.cleanup();
    });

    it('a finished resident member is woken by a message, an evicted member cold-resumes, a killed member rejects', async () => {
      const scenario = await backend.open();
      const host = new ScriptedHost(scenario);
      const heard: Array<[string, string]> = [];
      const listen =
        (name: string): Reaction =>
        async (turn, messages) => {
          await turn.step();
          messages.forEach((message) => heard.push([name, bodyOf(message)]));
        };
      const lead = await host.createLead(quiet);
      const reviewer = await host.spawn(lead, { name: 'reviewer', description: 'reviews' }, listen('reviewer'));
      const researcher = await host.spawn(
        lead,
        { name: 'researcher', description: 'researches' },
        listen('researcher'),
      );
      const tell = (target: string, message: string) =>
        host.turn(lead.sessionId, (turn) =>
          turn.step(() => lead.send({ target, message }).then(() => undefined)).then(() => undefined),
        );

      await tell('reviewer', 'first look');
      await host.settle();
      expect((await host.teamlog.session(reviewer.sessionId)).status).toBe('idle');
      const residentAt = revisionOf(
        await streamOf(scenario.store, reviewer.sessionId),
        (event) => event.type === 'teamlog/session/resident',
      );
      expect(residentAt).toBeGreaterThan(0);

      await tell('reviewer', 'second look');
      await host.settle();
      const reviewerEvents = await streamOf(scenario.store, reviewer.sessionId);
      expect(reviewerEvents.filter((event) => event.type === 'turn/start')).toHaveLength(2);
      expect(
        host.notices.filter((notice) => notice.target === reviewer.sessionId).map((notice) => notice.delivery),
      ).toEqual(['start-turn', 'start-turn']);

      await host.evict(researcher.sessionId);
      await tell('researcher', 'wake up cold');
      await host.settle();
      const researcherTypes = (await streamOf(scenario.store, researcher.sessionId)).map((event) => event.type);
      const evictedAt = researcherTypes.indexOf('teamlog/session/evicted');
      expect(researcherTypes.slice(evictedAt, evictedAt + 4)).toEqual([
        'teamlog/session/evicted',
        'teamlog/session/resumed',
        'teamlog/inbox/accepted',
        'turn/start',
      ]);

      await host.kill(reviewer.sessionId);
      const before = (await streamOf(scenario.store, reviewer.sessionId)).length;
      await expect(lead.send({ target: 'reviewer', message: 'are you there?' })).rejects.toMatchObject({
        code: 'TargetClosed',
      });
      expect(await streamOf(scenario.store, reviewer.sessionId)).toHaveLength(before);
      expect(heard).toEqual([
        ['reviewer', 'first look'],
        ['reviewer', 'second look'],
        ['researcher', 'wake up cold'],
      ]);
      await host.dispose();
      await scenario.cleanup();
    });

    it('a member that has not started keeps messages from the Lead and a sibling in order until it starts', async () => {
      const scenario = await backend.open();
      const host = new ScriptedHost(scenario);
      const heard: string[] = [];
      const lead = await host.createLead(quiet);
      const sibling = await host.spawn(lead, { name: 'sibling', description: 'talks first' }, quiet);
      const late = await host.spawn(
        lead,
        { name: 'late', description: 'starts later' },
        async (turn, messages) => {
          await turn.step();
          heard.push(...messages.map((message) => `${senderNameOf(message) ?? '?'}: ${bodyOf(message)}`));
        },
        { start: false },
      );
      await lead.send({ target: 'late', message: 'one' });
      await sibling.send({ target: late.sessionId, message: 'two' });
      await lead.send({ target: 'late', message: 'three' });
      await host.settle();
      expect(heard).toEqual([]);
      expect((await host.teamlog.session(late.sessionId)).status).toBe('not-started');
      await host.start(late.sessionId);
      await host.settle();
      expect(heard).toEqual(['lead: one', 'sibling: two', 'lead: three']);
      await host.dispose();
      await scenario.cleanup();
    });
  });
