import { isLeft } from 'fp-ts/Either';
import { DecodeError } from '@teamlog/events';
import { ReplayDocument } from '../src/replay-document';
import { type TeamlogRun, runTeamlog, temporaryDirectory } from './run-teamlog';

/*
 * The contract of `teamlog replay --json` (issue 6): the compiled CLI over fixtures/, its stdout
 * decoded with the codec, and concrete values of the fixtures checked.
 */

const decodeDocument = (run: TeamlogRun): ReplayDocument => {
  const decoded = ReplayDocument.decode(JSON.parse(run.stdout));
  if (isLeft(decoded)) throw DecodeError.fromErrors(decoded.left, 'stdout');
  return decoded.right;
};

describe('teamlog replay fixtures/ --json', () => {
  const directory = temporaryDirectory();
  let run: TeamlogRun;
  let document: ReplayDocument;

  beforeAll(() => {
    run = runTeamlog(['replay', 'fixtures/', '--json', '--store', `${directory.path}/contract.db`]);
    document = decodeDocument(run);
  }, 120_000);
  afterAll(() => directory.cleanup());

  const session = (file: string) => {
    const found = document.sessions.find((candidate) => candidate.file === file);
    if (found === undefined) throw new Error(`no session for ${file}`);
    return found;
  };
  const team = (teamId: string) => {
    const found = document.teams.find((candidate) => candidate.teamId === teamId);
    if (found === undefined) throw new Error(`no team ${teamId}`);
    return found;
  };

  it('exits 0 (rejected files inside a directory are reported, not fatal) and prints nothing on stderr when it is not a terminal', () => {
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('lists a file rejected as a whole with its reason, line and field path, and goes on with the others', () => {
    const rejected = session('fixtures/crafted/invalid-event/session.v3.jsonl');
    expect(rejected).toMatchObject({
      rejected: 'invalid-event',
      events: 0,
      recovery: null,
      rejection: { line: 3, path: 'data.step' },
    });
    expect(session('fixtures/crafted/newer-version/session.v5.jsonl').rejected).toBe('newer-format-version');
    expect(session('fixtures/crafted/not-a-session/notifications.jsonl').rejected).toBe('not-a-session-log');
    expect(document.totals.imported).toBeGreaterThan(100);
  });

  it('lists a recovered log with the reason and the events kept after recovery', () => {
    const torn = session('fixtures/crafted/torn-tail/session.jsonl');
    expect(torn.recovery).toMatchObject({ reason: 'torn-tail' });
    expect(torn.events).toBe(torn.recovery?.keptEvents);
    expect(torn.rejected).toBeUndefined();
  });

  it('states id, file and format version of an imported session', () => {
    expect(session('fixtures/synthetic/v0-mailbox/v0-lead/session.jsonl')).toMatchObject({
      id: 'v0-lead',
      formatVersion: 0,
      recovery: null,
    });
    expect(session('fixtures/synthetic/v3-failure/fail-lead/session.v3.jsonl').formatVersion).toBe(3);
  });

  it('shows a team with its members in order of first appearance with their latest snapshot', () => {
    const members = team('v0-lead').members;
    expect(members.map((member) => [member.name, member.phase])).toEqual([
      ['reviewer', 'active'],
      ['writer', 'active'],
      ['tester', 'failed'],
    ]);
    expect(members[2]?.error).toContain('quota exceeded');
  });

  it('shows tasks with their latest revision and blockers', () => {
    const tasks = team('v0-lead').tasks;
    expect(tasks.map((task) => [task.id, task.revision, task.status, task.blockedBy])).toEqual([
      ['task-1', 3, 'completed', []],
      ['task-2', 2, 'in_progress', ['task-1']],
      ['task-3', 1, 'pending', ['task-1', 'task-2']],
    ]);
    expect(tasks[0]?.ownerId).toBe('v0-reviewer');
  });

  it('shows the legacy mailbox in queued order with the undelivered message the target never got', () => {
    const messages = team('v0-lead').legacyMessages;
    expect(messages.map((message) => message.status)).toEqual(['delivered', 'delivered', 'delivered', 'undelivered']);
    expect(messages.map((message) => message.queuedSeq)).toEqual(
      [...messages.map((message) => message.queuedSeq)].sort((a, b) => a - b),
    );
    expect(messages[3]).toMatchObject({ targetId: 'v0-reviewer', delivery: 'quiet', targetHasMessage: false });
    expect(messages[3]?.deliveredSeq).toBeUndefined();
    expect(messages[0]).toMatchObject({ status: 'delivered', delivery: 'wakeup', targetHasMessage: true });
  });

  it("shows the first rule violation as the team's failure and null for a sound team", () => {
    expect(team('fail-lead').failure).toMatchObject({ type: 'team/task' });
    expect(team('fail-lead').failure?.reason).toContain('cycle');
    expect(team('v0-lead').failure).toBeNull();
  });

  it('lists a team only once it has a record of its own: a snapshot fixture without team events is no team', () => {
    expect(document.teams.some((candidate) => candidate.teamId.includes('team-direct-inbox'))).toBe(true);
    expect(document.teams.some((candidate) => candidate.teamId.includes('team-targets'))).toBe(false);
  });

  it('lists inbox entries with source kind and sender: a team-relay message from the real V4 snapshot', () => {
    const relay = document.inbox.find(
      (entry) => entry.sourceKind === 'team-relay' && entry.sessionId.includes('team-direct-inbox'),
    );
    expect(relay).toBeDefined();
    expect(relay?.senderName).toBeDefined();
  });

  it('lists audit findings with code, session, seq and detail', () => {
    const finding = document.audit.find((candidate) => candidate.code === 'sender-not-in-team');
    expect(finding).toMatchObject({ sessionId: 'snt-member' });
    expect(finding?.detail).toContain('snt-outsider');
    // fixtures/synthetic/audit-<code>/ holds one log pair per code.
    expect([...new Set(document.audit.map((candidate) => candidate.code))]).toEqual(
      expect.arrayContaining([
        'duplicate-acceptance',
        'header-message-id-mismatch',
        'header-sender-mismatch',
        'legacy-delivered-to-other-target',
        'missing-sender-header',
        'roster-name-mismatch',
        'source-kind-outside-era',
        'sender-not-in-team',
        'team-record-outside-era',
      ]),
    );
  });

  it('states the store and the position the views reached', () => {
    expect(document.store).toBe(`${directory.path}/contract.db`);
    expect(document.position).toMatch(/^\d+\/\d+$/);
  });
});
