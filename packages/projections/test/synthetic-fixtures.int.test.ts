import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import type { AuditFinding, TeamView, TeamlogViews } from '@teamlog/projections';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { sid } from '@teamlog/test-support/session-log-builder';
import { tempFile } from './temp-file';

/* The synthetic logs (fixtures/synthetic) through the importer into a real SQLite file. */

let views: TeamlogViews;
let scenarioOf: ReadonlyMap<string, string>;
let cleanup: () => void;
let store: SqliteEventStore;

beforeAll(async () => {
  const temp = tempFile();
  cleanup = temp.cleanup;
  store = SqliteEventStore.open(temp.file);
  const imported = await importFixtures(store, syntheticFixtures);
  expect(imported.report.rejected).toBe(0);
  scenarioOf = imported.scenarioOf;
  const projections = await sqliteProjections(store, { batchSize: 50 });
  await projections.catchUp();
  views = projections.views();
});

afterAll(async () => {
  await store.close();
  cleanup();
});

const team = (id: string): TeamView => {
  const found = views.teams().find((candidate) => candidate.teamId === id);
  if (found === undefined) throw new Error(`no team ${id}`);
  return found;
};

const findingsIn = (scenario: string): AuditFinding[] =>
  views.audit().filter((finding) => scenarioOf.get(finding.sessionId) === scenario);

describe('synthetic V0 mailbox team', () => {
  it('builds the roster: phases with their sessions, the failed member with its error', () => {
    expect(team('v0-lead').members.map((m) => [m.name, m.phase, m.status, m.error])).toEqual([
      ['reviewer', 'active', 'idle', undefined],
      ['writer', 'active', 'idle', undefined],
      ['tester', 'failed', 'failed', 'provider "spawn" could not start the child: quota exceeded'],
    ]);
  });

  it('builds the tasks with dependencies and their latest revision', () => {
    expect(team('v0-lead').tasks.map((t) => [t.id, t.revision, t.status, t.ownerId, t.blockedBy])).toEqual([
      ['task-1', 3, 'completed', 'v0-reviewer', []],
      ['task-2', 2, 'in_progress', 'v0-writer', ['task-1']],
      ['task-3', 1, 'pending', undefined, ['task-1', 'task-2']],
    ]);
  });

  it('lists the legacy mailbox: wakeup and quiet deliveries held by their targets, one undelivered', () => {
    expect(
      team('v0-lead').legacyMessages.map((m) => [m.senderName, m.targetId, m.delivery, m.status, m.targetHasMessage]),
    ).toEqual([
      ['lead', 'v0-reviewer', 'wakeup', 'delivered', true],
      ['lead', 'v0-writer', 'quiet', 'delivered', true],
      ['reviewer', 'v0-lead', 'wakeup', 'delivered', true],
      ['lead', 'v0-reviewer', 'quiet', 'undelivered', false],
    ]);
    expect(team('v0-lead').failure).toBeNull();
  });

  it('shows the mailbox messages in the targets inboxes: a claimed splice and a direct quiet message', () => {
    const peer = views.inbox({ peerOnly: true }).filter((entry) => scenarioOf.get(entry.sessionId) === 'v0-mailbox');
    expect(
      peer.map((entry) => [
        entry.sessionId,
        entry.sourceKind,
        entry.senderName,
        entry.list,
        entry.origin,
        entry.status,
      ]),
    ).toEqual([
      ['v0-lead', 'team-message', 'reviewer', 'next-turn', 'spliced', 'claimed'],
      ['v0-reviewer', 'team-message', 'lead', 'next-turn', 'spliced', 'claimed'],
      ['v0-writer', 'team-message', 'lead', undefined, 'direct', 'claimed'],
    ]);
  });
});

describe('synthetic V4 Lead log with a late v2 delivery', () => {
  it('marks both messages delivered, the late one by its version-2 acknowledgement', () => {
    const messages = team('late-lead').legacyMessages;
    expect(messages.map((m) => [m.status, m.recordVersion, m.targetHasMessage, m.delivery])).toEqual([
      ['delivered', 2, true, undefined],
      ['delivered', 2, true, undefined],
    ]);
    expect(messages[1]?.deliveredSeq).toBeGreaterThan(messages[1]?.queuedSeq ?? Infinity);
  });
});

describe('synthetic V3 log with a rule violation', () => {
  it('keeps the first violation as the failure and ignores the later records', () => {
    const failing = team('fail-lead');
    expect(failing.failure).toEqual({
      seq: expect.any(Number),
      type: 'team/task',
      reason: 'task dependency cycle includes "task-1"',
    });
    expect(failing.members.map((m) => m.name)).toEqual(['coder']);
    expect(failing.tasks.map((t) => [t.id, t.revision])).toEqual([
      ['task-1', 1],
      ['task-2', 1],
    ]);
    expect(views.session(sid('fail-lead'))?.lifecycle.status).toBe('idle');
  });
});

describe('synthetic forked child', () => {
  it('ignores the team records it inherited and has no team of its own', () => {
    expect(views.teams().map((t) => t.teamId)).not.toContain('fork-child');
    expect(team('fork-lead').members.map((m) => [m.name, m.context])).toEqual([
      ['scout', 'fresh'],
      ['helper', 'fork'],
    ]);
  });

  it('lists only the messages accepted after its inherited history', () => {
    expect(views.inbox({ sessionId: sid('fork-child') }).map((entry) => [entry.sourceKind, entry.senderName])).toEqual([
      ['team-message', 'lead'],
    ]);
  });
});

describe('synthetic direct-era V4 pair', () => {
  it('shows team-relay and agent-message acceptances with their senders and lists', () => {
    const peer = views.inbox({ peerOnly: true }).filter((entry) => scenarioOf.get(entry.sessionId) === 'v4-direct');
    expect(
      peer.map((entry) => [
        entry.sessionId,
        entry.sourceKind,
        entry.senderSessionId,
        entry.senderName,
        entry.list,
        entry.status,
      ]),
    ).toEqual([
      ['direct-lead', 'agent-message', 'direct-reviewer', undefined, 'next-turn', 'claimed'],
      ['direct-lead', 'team-relay', 'direct-reviewer', 'reviewer', 'next-turn', 'claimed'],
      ['direct-reviewer', 'team-relay', 'direct-lead', 'lead', 'next-step', 'claimed'],
    ]);
    expect(team('direct-lead').legacyMessages).toEqual([]);
  });
});

describe('audit over the synthetic logs', () => {
  it.each(['v0-mailbox', 'v4-late-delivery', 'v3-failure', 'v0-fork', 'v4-direct'])(
    'finds nothing in the clean scenario %s',
    (scenario) => {
      expect(findingsIn(scenario)).toEqual([]);
    },
  );

  it.each([
    'header-sender-mismatch',
    'header-message-id-mismatch',
    'missing-sender-header',
    'roster-name-mismatch',
    'sender-not-in-team',
    'source-kind-outside-era',
    'team-record-outside-era',
    'legacy-delivered-to-other-target',
    'duplicate-acceptance',
  ])('finds %s, and only it, in its scenario', (code) => {
    const findings = findingsIn(`audit-${code}`);
    expect(findings.length).toBeGreaterThan(0);
    expect(new Set(findings.map((finding) => finding.code))).toEqual(new Set([code]));
  });
});
