import { type CorpusRecord, type CorpusSummary, corpusSessionId, teamCorpus } from '../src/team-corpus';

const collect = (options: Parameters<typeof teamCorpus>[0]): { records: CorpusRecord[]; summary: CorpusSummary } => {
  const records: CorpusRecord[] = [];
  const corpus = teamCorpus(options);
  for (let next = corpus.next(); ; next = corpus.next()) {
    if (next.done === true) return { records, summary: next.value };
    records.push(next.value);
  }
};

const small = { events: 6000, teams: 2, membersPerTeam: 4 };
const isHeader = (record: CorpusRecord): boolean => record.line.type === 'session';
const dataOf = (record: CorpusRecord): Record<string, unknown> => record.line.data as Record<string, unknown>;
const timeOf = (record: CorpusRecord): number => record.line.time as number;

describe('team corpus generator', () => {
  const { records, summary } = collect(small);
  const events = records.filter((record) => !isHeader(record));
  const ofType = (type: string) => events.filter((record) => record.line.type === type);

  it('gives the same records for the same options and other records for another seed', () => {
    expect(collect(small).records).toEqual(records);
    expect(collect({ ...small, seed: 7 }).records).not.toEqual(records);
  });

  it('stops once the requested number of events is written, and counts them', () => {
    expect(summary.events).toBe(events.length);
    expect(events.length).toBeGreaterThanOrEqual(small.events);
    expect(events.length).toBeLessThan(small.events + 50);
    expect(summary.sessions).toBe(small.teams * (1 + small.membersPerTeam));
  });

  it('starts every session with a V4 header and numbers its events densely from 0', () => {
    const bySession = new Map<string, CorpusRecord[]>();
    records.forEach((record) => bySession.set(record.sessionId, [...(bySession.get(record.sessionId) ?? []), record]));
    expect(bySession.size).toBe(summary.sessions);
    for (const [sessionId, lines] of bySession) {
      const [header, ...rest] = lines as [CorpusRecord, ...CorpusRecord[]];
      expect(header.line).toMatchObject({ type: 'session', version: 4, id: sessionId, isSeeded: false });
      expect(rest.map((record) => record.line.seq)).toEqual(rest.map((_, index) => index));
    }
  });

  it('writes Team records of version 1 first, then version 2, only into Lead logs', () => {
    const teamRecords = events.filter((record) => String(record.line.type).startsWith('team/'));
    const versions = teamRecords.map((record) => dataOf(record).version);
    expect(versions.indexOf(2)).toBeGreaterThan(versions.lastIndexOf(1));
    expect(summary.teamRecords.v1).toBe(versions.filter((version) => version === 1).length);
    expect(summary.teamRecords.v2).toBe(versions.filter((version) => version === 2).length);
    const leads = new Set([0, 1].map((team) => corpusSessionId(team, 'lead')));
    expect(teamRecords.every((record) => leads.has(record.sessionId))).toBe(true);
  });

  it('delivers a queued message only after the target inbox holds it, to the queued target, once', () => {
    const queued = new Map(
      ofType('team/message/queued').map((record) => {
        const message = dataOf(record).message as Record<string, unknown>;
        return [message.id, { target: message.targetId, time: timeOf(record) }];
      }),
    );
    const spliced = new Map<unknown, number>();
    ofType('agent/inbox/spliced').forEach((record) =>
      (dataOf(record).inserted as Array<{ source: Record<string, unknown> }>).forEach((item) => {
        if (item.source.kind === 'team-message') spliced.set(item.source.messageId, timeOf(record));
      }),
    );
    const delivered = ofType('team/message/delivered');
    expect(delivered.length).toBe(summary.delivered);
    expect(queued.size).toBe(summary.queued);
    expect(summary.delivered).toBeLessThan(summary.queued);
    expect(new Set(delivered.map((record) => dataOf(record).messageId)).size).toBe(delivered.length);
    for (const record of delivered) {
      const { messageId, targetId } = dataOf(record);
      expect(queued.get(messageId)?.target).toBe(targetId);
      expect(spliced.get(messageId)).toBeGreaterThan(queued.get(messageId)?.time ?? Infinity);
      expect(timeOf(record)).toBeGreaterThan(spliced.get(messageId) ?? Infinity);
    }
  });

  it('keeps mailbox records before the mailbox era ended and team-relay messages after the relay era began', () => {
    const mailboxEnd = Date.UTC(2026, 8, 26);
    const relayStart = Date.UTC(2026, 8, 27);
    expect(ofType('team/message/queued').every((record) => timeOf(record) < mailboxEnd)).toBe(true);
    const relays = ofType('agent/inbox/spliced').filter((record) =>
      (dataOf(record).inserted as Array<{ source: Record<string, unknown> }>).some(
        (item) => item.source.kind === 'team-relay',
      ),
    );
    expect(relays.length).toBe(summary.relayed);
    expect(relays.every((record) => timeOf(record) >= relayStart)).toBe(true);
  });

  it('claims inbox messages into the conversation under the ids they were spliced with', () => {
    const insertedIds = ofType('agent/inbox/spliced').flatMap((record) =>
      (dataOf(record).inserted as Array<{ id: string }>).map((item) => item.id),
    );
    const claimedIds = ofType('user/message')
      .map((record) => dataOf(record).id)
      .filter((id) => insertedIds.includes(id as string));
    expect(claimedIds.length).toBe(summary.claimed);
    expect(summary.claimed).toBeGreaterThan(0);
    expect(new Set(claimedIds).size).toBe(claimedIds.length);
  });

  it('keeps task revisions contiguous and blockers live', () => {
    const tasks = new Map<string, { revision: number; status: string }>();
    for (const record of ofType('team/task')) {
      const lead = record.sessionId;
      const task = dataOf(record).task as { id: string; revision: number; status: string; blockedBy: string[] };
      const key = `${lead}/${task.id}`;
      expect(task.revision).toBe((tasks.get(key)?.revision ?? 0) + 1);
      tasks.set(key, task);
      task.blockedBy.forEach((blocker) => expect(tasks.get(`${lead}/${blocker}`)?.status).not.toBe('deleted'));
    }
    expect(summary.tasks).toBe([...tasks.keys()].length);
  });
});
