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

  it('given no status filter, when a page deep in a big mailbox is asked for, then only its rows are read and it equals the walked page', () => {
    const mailbox = Array.from({ length: 5000 }, (_, index) =>
      queued(`m${index}`, 'c-lead', 'c-lead', index % 3 === 0 ? 'undelivered' : 'delivered', index),
    );
    const reads = new Set<number>();
    const counted = new Proxy(mailbox, {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^[0-9]+$/.test(key)) reads.add(Number(key));
        return Reflect.get(target, key, receiver);
      },
    });
    const big = [teams[0] as TeamView, teamOf('c-lead', [], counted)];
    const page = legacyMailbox(big, {}, undefined, { offset: 3000, limit: 200 });
    expect([page.messages[0]?.id, page.messages.length, page.total, page.nextOffset]).toEqual([
      'm2998',
      200,
      5002,
      3200,
    ]);
    expect(reads.size).toBe(200);
    const walked = legacyMailbox(big, { status: 'delivered' }, undefined, { offset: 0, limit: 5 });
    expect(walked.messages.map((row) => row.id)).toEqual(['q1', 'm1', 'm2', 'm4', 'm5']);
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
