import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import type { AuditFinding, LegacyMessageView, TeamView } from '@teamlog/projections';
import { auditListing } from '../src/audit-listing';
import { legacyMailbox } from '../src/legacy-mailbox';

const teamOf = (lead: string, members: Array<[string, string]>, legacyMessages: LegacyMessageView[]): TeamView => ({
  teamId: lead as TeamId,
  lead: { id: lead as SessionId, status: 'idle' },
  members: members.map(([id, name]) => ({
    id: id as SessionId,
    name,
    description: '',
    provider: 'spawn',
    context: 'fresh',
    phase: 'active',
    status: 'idle',
    firstSeq: 0,
    seq: 1,
  })),
  tasks: [],
  legacyMessages,
  failure: null,
});

const queued = (
  id: string,
  lead: string,
  targetId: string,
  status: 'delivered' | 'undelivered',
  queuedSeq: number,
): LegacyMessageView => ({
  id: id as MessageId,
  senderId: lead as SessionId,
  senderName: 'lead',
  targetId: targetId as SessionId,
  queuedSeq,
  status,
  recordVersion: 1,
});

const teams = [
  teamOf(
    'a-lead',
    [['a-1', 'reviewer']],
    [queued('q1', 'a-lead', 'a-1', 'delivered', 5), queued('q2', 'a-lead', 'gone', 'undelivered', 9)],
  ),
  teamOf('b-lead', [], [queued('q3', 'b-lead', 'b-lead', 'undelivered', 2)]),
];

describe('legacyMailbox', () => {
  it('lists every team’s mailbox in order with the team, the target’s roster name and the queued record’s event', () => {
    expect(
      legacyMailbox(teams).messages.map(({ id, teamId, targetName, eventUrl }) => ({
        id,
        teamId,
        targetName,
        eventUrl,
      })),
    ).toEqual([
      { id: 'q1', teamId: 'a-lead', targetName: 'reviewer', eventUrl: '/api/event?sessionId=a-lead&seq=5' },
      { id: 'q2', teamId: 'a-lead', targetName: 'gone', eventUrl: '/api/event?sessionId=a-lead&seq=9' },
      { id: 'q3', teamId: 'b-lead', targetName: 'lead', eventUrl: '/api/event?sessionId=b-lead&seq=2' },
    ]);
  });

  it('filters by status and by team', () => {
    expect(legacyMailbox(teams, { status: 'undelivered' }).messages.map((row) => row.id)).toEqual(['q2', 'q3']);
    expect(legacyMailbox(teams, { teamId: 'b-lead' as TeamId }).messages.map((row) => row.id)).toEqual(['q3']);
  });

  it('answers a page: `limit` rows from `offset`, the total the filter matches, and where the next page starts', () => {
    const first = legacyMailbox(teams, {}, undefined, { limit: 2 });
    expect([first.messages.map((row) => row.id), first.total, first.nextOffset]).toEqual([['q1', 'q2'], 3, 2]);
    const last = legacyMailbox(teams, {}, undefined, { offset: 2, limit: 2 });
    expect([last.messages.map((row) => row.id), last.total, last.nextOffset]).toEqual([['q3'], 3, undefined]);
    const undelivered = legacyMailbox(teams, { status: 'undelivered' }, undefined, { offset: 1, limit: 5 });
    expect([undelivered.messages.map((row) => row.id), undelivered.total]).toEqual([['q3'], 2]);
  });
});

describe('auditListing', () => {
  const findings: AuditFinding[] = [
    { code: 'header-sender-mismatch', sessionId: 'm-1' as SessionId, seq: 6, detail: 'a', teamId: 't-1' as TeamId },
    { code: 'undecodable-event', sessionId: 'm/2 x' as SessionId, seq: -1, detail: 'b' },
  ];

  it('links each finding to its event, escaping the session id in the URL', () => {
    expect(auditListing(findings).map((row) => row.eventUrl)).toEqual([
      '/api/event?sessionId=m-1&seq=6',
      '/api/event?sessionId=m%2F2+x&seq=-1',
    ]);
  });

  it('filters by code, session and team', () => {
    expect(auditListing(findings, { code: 'undecodable-event' }).map((row) => row.detail)).toEqual(['b']);
    expect(auditListing(findings, { sessionId: 'm-1' as SessionId }).map((row) => row.detail)).toEqual(['a']);
    expect(auditListing(findings, { teamId: 't-1' as TeamId }).map((row) => row.detail)).toEqual(['a']);
  });
});
