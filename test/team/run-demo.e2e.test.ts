import type { MessageId, SessionId } from '@teamlog/events';
import { TeamlogProjections } from '@teamlog/projections';
import { runDemo } from '@teamlog/scripted-host';
import { describeOn, scenarioBackends, scenarioStore, streamOf } from './scenario-store';

for (const backend of scenarioBackends)
  describeOn(backend, 'runDemo (what `teamlog demo` shows)', () => {
    it('shows a steer, a wake, a cold resume, a refused send to a killed member and dependent tasks, and leaves a consistent store', async () => {
      const scenario = await backend.open();
      const summary = await runDemo(scenario.store, scenario.ids, scenario.clock);

      const deliveries = summary.messages.map((message) => `${message.from}->${message.to}:${message.delivery}`);
      expect(deliveries).toContain('researcher->implementer:steer');
      expect(deliveries).toContain('lead->researcher:cold-resume');
      expect(deliveries.filter((delivery) => delivery === 'lead->reviewer:start-turn')).toHaveLength(2);
      expect(summary.messages.every((message) => message.outcome === 'claimed')).toBe(true);
      expect(summary.rejected).toEqual([
        expect.objectContaining({ from: 'lead', to: 'reviewer', error: 'TargetClosed' }),
      ]);
      expect(summary.members.find((member) => member.name === 'reviewer')).toMatchObject({
        status: 'closed',
        closeReason: 'killed',
      });
      expect(summary.tasks.map((task) => [task.id, task.status, task.blockedBy])).toEqual([
        ['task-1', 'completed', []],
        ['task-2', 'completed', ['task-1']],
        ['task-3', 'completed', ['task-2']],
      ]);
      expect(summary.leadSummary).toContain('steered by researcher');
      expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);

      // Each accepted message is in its target's stream once as accepted and once in the conversation.
      for (const message of summary.messages) {
        const target = [...summary.members, { name: 'lead', sessionId: summary.teamId as string as SessionId }].find(
          (member) => member.name === message.to,
        );
        const events = await streamOf(scenario.store, target?.sessionId as SessionId);
        const ids = (type: string, pick: (data: never) => MessageId) =>
          events.filter((event) => event.type === type).map((event) => pick(event.data as never));
        expect(
          ids('teamlog/inbox/accepted', (data: { message: { id: MessageId } }) => data.message.id).filter(
            (id) => id === message.id,
          ),
        ).toHaveLength(1);
        expect(
          ids('user/message', (data: { id: MessageId }) => data.id).filter((id) => id === message.id),
        ).toHaveLength(1);
      }
      const types = new Set<string>();
      for await (const event of scenario.store.readAll()) types.add(event.type);
      expect([...types].filter((type) => type.startsWith('team/message/'))).toEqual([]);

      // The projection runner folds the same store unchanged: the demo's team, inboxes and a clean audit.
      const projections = await TeamlogProjections.inMemory(scenario.store);
      await projections.catchUp();
      const team = projections
        .views()
        .teams()
        .find((candidate) => candidate.teamId === summary.teamId);
      expect(team?.members.map((member) => [member.name, member.status])).toEqual(
        summary.members.map((member) => [member.name, member.status === 'closed' ? 'closed' : expect.any(String)]),
      );
      expect(team?.tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed']);
      const sessions = new Set([
        summary.teamId as string,
        ...summary.members.map((member) => member.sessionId as string),
      ]);
      const accepted = projections
        .views()
        .inbox()
        .filter((entry) => sessions.has(entry.sessionId) && entry.sourceKind === 'team-relay');
      expect(accepted.map((entry) => entry.messageId).sort()).toEqual(
        summary.messages.map((message) => message.id).sort(),
      );
      expect(accepted.every((entry) => entry.status === 'claimed')).toBe(true);
      expect(
        projections
          .views()
          .audit()
          .filter((finding) => sessions.has(finding.sessionId)),
      ).toEqual([]);
      await scenario.cleanup();
    });
  });

describe('runDemo on SQLite, deterministic', () => {
  it('given the same ids and clock, then two runs produce the same summary', async () => {
    const first = await scenarioStore();
    const second = await scenarioStore();
    const a = await runDemo(first.store, first.ids, first.clock);
    const b = await runDemo(second.store, second.ids, second.clock);
    expect(b).toEqual(a);
    await first.cleanup();
    await second.cleanup();
  });
});
