import { InMemoryEventStore } from '@teamlog/store';
import { type AuditCode, auditCodes } from '@teamlog/projections';
import {
  agentMessageItem,
  appendHeader,
  appendSession,
  claim,
  delivered,
  ev,
  mailboxItem,
  member,
  queued,
  relayItem,
  splice,
  userMessage,
} from '@teamlog/test-support/session-log-builder';
import { viewsOf } from './views-of';

const mailboxTime = Date.UTC(2026, 6, 20);
const directTime = Date.UTC(2026, 9, 2);

/** A V4 team in the direct era: Lead `lead-1`, member `a` named alpha. */
const directTeam = async (store: InMemoryEventStore): Promise<void> => {
  await appendHeader(store, 'lead-1', 4);
  await appendHeader(store, 'a', 4);
  await appendSession(
    store,
    'lead-1',
    [member(2, 'lead-1', 'a', 'alpha', 'provisioning'), member(2, 'lead-1', 'a', 'alpha', 'active')],
    { startTime: directTime },
  );
};

/** A V0 team in the mailbox era, with message m1 queued from the Lead to `a`. */
const mailboxTeam = async (store: InMemoryEventStore, extra: ReturnType<typeof ev>[] = []): Promise<void> => {
  await appendHeader(store, 'lead-1', 0);
  await appendHeader(store, 'a', 0);
  await appendHeader(store, 'b', 0);
  await appendSession(
    store,
    'lead-1',
    [
      member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
      member(1, 'lead-1', 'b', 'beta', 'provisioning'),
      queued(1, 'lead-1', 'm1', 'lead-1', 'lead', 'a'),
      ...extra,
    ],
    { startTime: mailboxTime },
  );
};

const codesOf = async (store: InMemoryEventStore): Promise<AuditCode[]> =>
  (await viewsOf(store)).audit().map((finding) => finding.code);

describe('sender-attribution audit', () => {
  it('finds nothing in clean logs of either era', async () => {
    const store = new InMemoryEventStore();
    await mailboxTeam(store, [delivered(1, 'lead-1', 'm1', 'a')]);
    await appendSession(
      store,
      'a',
      [splice('next-turn', 0, [mailboxItem('lead-1', 'm1', 'lead-1', 'lead')]), claim('next-turn', 1)],
      { startTime: mailboxTime },
    );
    await appendHeader(store, 'lead-2', 4);
    await appendHeader(store, 'c', 4);
    await appendSession(
      store,
      'lead-2',
      [member(2, 'lead-2', 'c', 'gamma', 'provisioning'), splice('next-turn', 0, [relayItem('r2', 'c', 'gamma')])],
      { startTime: directTime },
    );
    await appendSession(
      store,
      'c',
      [
        splice('next-step', 0, [relayItem('r1', 'lead-2', 'lead')]),
        splice('next-turn', 0, [agentMessageItem('g1', 'lead-2')]),
      ],
      { startTime: directTime },
    );
    expect((await viewsOf(store)).audit()).toEqual([]);
  });

  it('header-sender-mismatch: the header names another sender than the source', async () => {
    const store = new InMemoryEventStore();
    await appendSession(
      store,
      'x',
      [splice('next-step', 0, [relayItem('r1', 'lead-9', 'lead', 'Team message from alpha:')])],
      { startTime: directTime },
    );
    expect((await viewsOf(store)).audit()).toEqual([
      {
        code: 'header-sender-mismatch',
        sessionId: 'x',
        seq: 0,
        messageId: 'r1',
        detail: 'header names "alpha", source names "lead"',
      },
    ]);
  });

  it('header-message-id-mismatch: a mailbox header names another message id', async () => {
    const store = new InMemoryEventStore();
    await mailboxTeam(store);
    await appendSession(
      store,
      'a',
      [splice('next-turn', 0, [mailboxItem('lead-1', 'm1', 'lead-1', 'lead', 'item-1', 'm7')])],
      { startTime: mailboxTime },
    );
    expect(await codesOf(store)).toEqual(['header-message-id-mismatch']);
  });

  it('missing-sender-header: a Team message without its header line', async () => {
    const store = new InMemoryEventStore();
    await directTeam(store);
    await appendSession(store, 'a', [splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead', null)])], {
      startTime: directTime,
    });
    expect(await codesOf(store)).toEqual(['missing-sender-header']);
  });

  it('roster-name-mismatch: source and header agree but the roster names the sender otherwise', async () => {
    const store = new InMemoryEventStore();
    await directTeam(store);
    await appendSession(store, 'lead-1', [splice('next-turn', 0, [relayItem('r1', 'a', 'boss')])], {
      startTime: directTime,
    });
    const [finding] = (await viewsOf(store)).audit();
    expect(finding).toEqual({
      code: 'roster-name-mismatch',
      sessionId: 'lead-1',
      seq: 2,
      messageId: 'r1',
      teamId: 'lead-1',
      detail: 'source names "boss", header names "boss"; the roster names a "alpha"',
    });
  });

  it('sender-not-in-team: the sender is neither the Lead nor a member of the target team', async () => {
    const store = new InMemoryEventStore();
    await directTeam(store);
    await appendSession(store, 'a', [splice('next-step', 0, [relayItem('r1', 'mallory-1', 'mallory')])], {
      startTime: directTime,
    });
    expect(await codesOf(store)).toEqual(['sender-not-in-team']);
  });

  it('sender-not-in-team: a team-message is judged against the team its source names', async () => {
    const store = new InMemoryEventStore();
    await mailboxTeam(store);
    const forged = { ...mailboxItem('lead-1', 'm9', 'z', 'zeta'), id: 'item-9' };
    await appendSession(store, 'a', [splice('next-turn', 0, [forged])], { startTime: mailboxTime });
    expect(await codesOf(store)).toEqual(['sender-not-in-team']);
  });

  it.each([
    ['team-relay in a V0 log', 0, mailboxTime, relayItem('r1', 'lead-1', 'lead')],
    ['team-relay before 2026-09-27', 4, Date.UTC(2026, 8, 26, 12), relayItem('r1', 'lead-1', 'lead')],
    ['agent-message in a V2 log', 2, mailboxTime, agentMessageItem('g1', 'lead-1')],
    ['team-message after the mailbox era, not queued', 4, directTime, mailboxItem('lead-1', 'm5', 'lead-1', 'lead')],
  ])('source-kind-outside-era: %s', async (_case, formatVersion, time, item) => {
    const store = new InMemoryEventStore();
    await appendHeader(store, 'lead-1', formatVersion);
    await appendHeader(store, 'a', formatVersion);
    await appendSession(store, 'lead-1', [member(formatVersion >= 3 ? 2 : 1, 'lead-1', 'a', 'alpha', 'provisioning')], {
      startTime: time,
    });
    await appendSession(store, 'a', [splice('next-step', 0, [item])], { startTime: time });
    expect(await codesOf(store)).toEqual(['source-kind-outside-era']);
  });

  it('accepts a late team-message that its team queued (a late legacy delivery)', async () => {
    const store = new InMemoryEventStore();
    await appendHeader(store, 'lead-1', 4);
    await appendHeader(store, 'a', 4);
    await appendSession(
      store,
      'lead-1',
      [member(2, 'lead-1', 'a', 'alpha', 'provisioning'), queued(2, 'lead-1', 'm5', 'lead-1', 'lead', 'a')],
      { startTime: Date.UTC(2026, 8, 20) },
    );
    await appendSession(store, 'lead-1', [delivered(2, 'lead-1', 'm5', 'a')], { startTime: directTime });
    await appendSession(store, 'a', [splice('next-turn', 0, [mailboxItem('lead-1', 'm5', 'lead-1', 'lead')])], {
      startTime: directTime,
    });
    expect(await codesOf(store)).toEqual([]);
  });

  it('does not judge the time of a normalised fixture event (it has none)', async () => {
    const store = new InMemoryEventStore();
    await appendHeader(store, 'a', 4, { normalised: true });
    await appendSession(store, 'a', [splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')])], {
      startTime: 0,
      normalised: true,
    });
    expect(await codesOf(store)).toEqual([]);
  });

  it('team-record-outside-era: version-2 records in a V0 log and a queued record after the mailbox era', async () => {
    const store = new InMemoryEventStore();
    await appendHeader(store, 'lead-1', 0);
    await appendSession(store, 'lead-1', [member(2, 'lead-1', 'a', 'alpha', 'provisioning')], {
      startTime: mailboxTime,
    });
    await appendHeader(store, 'lead-2', 4);
    await appendSession(store, 'lead-2', [queued(2, 'lead-2', 'm1', 'lead-2', 'lead', 'b')], { startTime: directTime });
    expect((await viewsOf(store)).audit().map((finding) => [finding.code, finding.sessionId, finding.seq])).toEqual([
      ['team-record-outside-era', 'lead-1', 0],
      ['team-record-outside-era', 'lead-2', 0],
    ]);
  });

  it('legacy-delivered-to-other-target: a delivered record or an inbox copy at another target than the queued one', async () => {
    const store = new InMemoryEventStore();
    await mailboxTeam(store, [delivered(1, 'lead-1', 'm1', 'b')]);
    await appendSession(store, 'b', [splice('next-turn', 0, [mailboxItem('lead-1', 'm1', 'lead-1', 'lead')])], {
      startTime: mailboxTime,
    });
    expect(
      (await viewsOf(store))
        .audit()
        .map((finding) => [finding.code, finding.sessionId, finding.seq, finding.messageId]),
    ).toEqual([
      ['legacy-delivered-to-other-target', 'b', 0, 'm1'],
      ['legacy-delivered-to-other-target', 'lead-1', 3, 'm1'],
    ]);
  });

  it('duplicate-acceptance: one message id accepted twice into the same inbox', async () => {
    const store = new InMemoryEventStore();
    await directTeam(store);
    await appendSession(
      store,
      'a',
      [
        splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')]),
        claim('next-step', 1),
        userMessage(relayItem('r1', 'lead-1', 'lead')),
        splice('next-turn', 0, [relayItem('r1', 'lead-1', 'lead')]),
      ],
      { startTime: directTime },
    );
    expect((await viewsOf(store)).audit()).toEqual([
      {
        code: 'duplicate-acceptance',
        sessionId: 'a',
        seq: 3,
        messageId: 'r1',
        detail: 'message r1 was already accepted at seq 0',
      },
    ]);
  });

  it('undecodable-event: an inbox event the catalog refuses', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'a', [ev('teamlog/inbox/claimed', { list: 'next-turn', messageIds: 'r1', turn: 1 })]);
    expect(await codesOf(store)).toEqual(['undecodable-event']);
  });

  it('lists a revoked session once and audits none of its events', async () => {
    const store = new InMemoryEventStore();
    await mailboxTeam(store, [delivered(1, 'lead-1', 'm1', 'b')]);
    expect(await codesOf(store)).toContain('legacy-delivered-to-other-target');
    await appendSession(store, 'lead-1', [
      ev('teamlog/import/revoked', {
        file: 'lead-1/session.jsonl',
        reason: 'damaged-history',
        message: 'lead-1/session.jsonl:line 5: a gap',
      }),
    ]);
    const findings = (await viewsOf(store)).audit();
    expect(findings.map(({ code, sessionId, seq }) => ({ code, sessionId, seq }))).toEqual([
      { code: 'revoked-session', sessionId: 'lead-1', seq: 4 },
    ]);
    expect(findings[0]?.detail).toMatch(/lead-1\/session\.jsonl was revoked \(damaged-history\)/);
  });

  it('has a test above for every code it can report (the acceptance checks: acceptance-checks.int.test.ts)', () => {
    expect([...auditCodes].sort()).toEqual([
      'duplicate-acceptance',
      'header-message-id-mismatch',
      'header-sender-mismatch',
      'legacy-delivered-to-other-target',
      'message-id-reused',
      'missing-sender-header',
      'revoked-session',
      'roster-name-mismatch',
      'sender-closed',
      'sender-in-other-team',
      'sender-not-in-roster',
      'sender-not-in-team',
      'sender-stream-missing',
      'source-kind-outside-era',
      'team-record-outside-era',
      'undecodable-event',
      'writer-missing',
      'writer-not-sender',
    ]);
  });
});
