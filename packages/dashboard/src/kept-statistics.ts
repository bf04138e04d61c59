import { type SessionId, isPeerSource } from '@teamlog/events';
import {
  type ClaimLatency,
  type LatencySummary,
  type PairCount,
  type ProjectionState,
  type SessionInbox,
  type TeamProjection,
  inheritedCut,
  senderOf,
} from '@teamlog/projections';
import { type BoundedStatistics, maxListedClaims } from './bounded-statistics';

type Entries = SessionInbox['state']['entries'];

/** One session's own peer entries as far as they were counted. */
interface SessionCounts {
  readonly entries: Entries;
  readonly cut: number;
  /** Entries below this index are counted. */
  done: number;
  /** Peer messages accepted per sender. */
  readonly senders: Map<SessionId, number>;
  /** Counted peer entries still pending: a claim may settle them later. */
  readonly waiting: Set<number>;
  /** Its claimed peer entries, in entry order. */
  readonly claims: Array<{ readonly index: number; readonly latency: ClaimLatency }>;
}

/** One Team's legacy counts, taken again only when a record was folded into it. */
interface TeamCounts {
  readonly teamId: TeamProjection['state']['teamId'];
  readonly records: TeamProjection['records'];
  readonly recordCount: number;
  readonly messages: TeamProjection['state']['messages'];
  readonly messageCount: number;
  readonly failure: TeamProjection['state']['failure'];
  readonly pairs: ReadonlyArray<readonly [SessionId, SessionId]>;
  readonly undelivered: number;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Where `value` goes in ascending `sorted` (after its equals). */
const insertionPoint = (sorted: readonly number[], value: number): number => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
};

/** Sorted values and their sum, so a summary costs a few look-ups (integers: the sum is exact in any order). */
class SortedValues {
  private values: number[] = [];
  private sum = 0;

  add(value: number): void {
    this.values.splice(insertionPoint(this.values, value), 0, value);
    this.sum += value;
  }

  clear(): void {
    this.values = [];
    this.sum = 0;
  }

  /** As `summarise` of dashboard-statistics.ts: nearest-rank median and p95. */
  summary(): LatencySummary | null {
    const sorted = this.values;
    if (sorted.length === 0) return null;
    const rank = (p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;
    return {
      count: sorted.length,
      min: sorted[0] as number,
      median: rank(50),
      p95: rank(95),
      max: sorted[sorted.length - 1] as number,
      mean: this.sum / sorted.length,
    };
  }
}

const claimLatency = (inbox: SessionInbox, sessionId: SessionId, index: number): ClaimLatency | undefined => {
  const entry = inbox.state.entries[index];
  const detail = inbox.details[index];
  if (entry === undefined || detail === undefined || entry.status !== 'claimed' || entry.settledSeq === undefined)
    return undefined;
  const timed = !detail.normalised && detail.settledTime !== undefined;
  return {
    sessionId,
    messageId: detail.messageId,
    seqs: entry.settledSeq - entry.acceptedSeq,
    ...(timed ? { ms: (detail.settledTime as number) - detail.time } : {}),
  };
};

const teamCounts = (team: TeamProjection): TeamCounts => {
  let undelivered = 0;
  const pairs: Array<readonly [SessionId, SessionId]> = [];
  team.state.messages.forEach(({ message, deliveredSeq }) => {
    pairs.push([message.senderId, message.targetId]);
    if (deliveredSeq === undefined) undelivered += 1;
  });
  return {
    teamId: team.state.teamId,
    records: team.records,
    recordCount: team.records.length,
    messages: team.state.messages,
    messageCount: team.state.messages.size,
    failure: team.state.failure,
    pairs,
    undelivered,
  };
};

/**
 * The dashboard's statistics kept as the views grow (docs/dashboard.md#as-of-views-and-the-cost-of-a-request): each session's
 * peer entries are counted once, a pending one again when a claim settles it, and a Team's legacy
 * counts again only when a record was folded into it; the latency summaries come from values kept
 * sorted. A read costs the sessions, the teams and the waiting entries, not the history, and equals
 * `boundedStatistics(readDashboardStatistics(state))` (a property test holds it to that). Read it
 * over one state as it grows (the live views), as `KeptAudit` is.
 */
export class KeptStatistics {
  private sessions = new Map<SessionId, SessionCounts>();
  private teams = new Map<SessionId, TeamCounts>();
  private readonly seqs = new SortedValues();
  private readonly ms = new SortedValues();

  read(state: ProjectionState): BoundedStatistics {
    this.updateSessions(state);
    this.updateTeams(state);
    return this.answer();
  }

  private updateSessions(state: ProjectionState): void {
    const cutOf = (id: SessionId): number => {
      const facts = state.sessions.get(id);
      return facts === undefined ? 0 : inheritedCut(facts);
    };
    const moved = (id: SessionId, kept: SessionCounts): boolean => {
      const entries = state.inboxes.get(id)?.state.entries;
      return entries === undefined || kept.entries !== entries || kept.cut !== cutOf(id) || kept.done > entries.length;
    };
    if ([...this.sessions].some(([id, kept]) => moved(id, kept))) {
      // A session folded again from nothing (superseded), left out (revoked) or cut later: count all again.
      this.sessions = new Map();
      this.seqs.clear();
      this.ms.clear();
    }
    for (const [id, inbox] of state.inboxes) {
      let kept = this.sessions.get(id);
      if (kept === undefined) {
        kept = {
          entries: inbox.state.entries,
          cut: cutOf(id),
          done: 0,
          senders: new Map(),
          waiting: new Set(),
          claims: [],
        };
        this.sessions.set(id, kept);
      }
      this.count(id, inbox, kept);
    }
  }

  private count(id: SessionId, inbox: SessionInbox, kept: SessionCounts): void {
    for (const index of [...kept.waiting]) {
      const entry = inbox.state.entries[index];
      if (entry === undefined || entry.status === 'pending') continue;
      kept.waiting.delete(index);
      this.claimed(inbox, id, kept, index);
    }
    const { entries } = inbox.state;
    for (let index = kept.done; index < entries.length; index += 1) {
      const entry = entries[index];
      if (entry === undefined || inbox.details[index] === undefined || entry.acceptedSeq < kept.cut) continue;
      if (!isPeerSource(entry.source)) continue;
      const sender = senderOf(entry.source).sessionId;
      if (sender !== undefined) kept.senders.set(sender, (kept.senders.get(sender) ?? 0) + 1);
      if (entry.status === 'pending') kept.waiting.add(index);
      else this.claimed(inbox, id, kept, index);
    }
    kept.done = entries.length;
  }

  private claimed(inbox: SessionInbox, id: SessionId, kept: SessionCounts, index: number): void {
    const latency = claimLatency(inbox, id, index);
    if (latency === undefined) return;
    let at = kept.claims.length;
    while (at > 0 && (kept.claims[at - 1]?.index as number) > index) at -= 1;
    kept.claims.splice(at, 0, { index, latency });
    this.seqs.add(latency.seqs);
    if (latency.ms !== undefined) this.ms.add(latency.ms);
  }

  private updateTeams(state: ProjectionState): void {
    const next = new Map<SessionId, TeamCounts>();
    for (const [lead, team] of state.teams) {
      if (!team.state.hasRecords) continue;
      const kept = this.teams.get(lead);
      const same =
        kept !== undefined &&
        kept.records === team.records &&
        kept.recordCount === team.records.length &&
        kept.messages === team.state.messages &&
        kept.messageCount === team.state.messages.size &&
        kept.failure === team.state.failure;
      next.set(lead, same ? kept : teamCounts(team));
    }
    this.teams = next;
  }

  private pairs(): PairCount[] {
    const pairs = new Map<string, PairCount & { accepted: number; legacyQueued: number }>();
    const pair = (senderSessionId: SessionId, targetSessionId: SessionId) => {
      const key = `${senderSessionId}\u0000${targetSessionId}`;
      const counts = pairs.get(key) ?? { senderSessionId, targetSessionId, accepted: 0, legacyQueued: 0 };
      pairs.set(key, counts);
      return counts;
    };
    for (const [target, kept] of this.sessions)
      kept.senders.forEach((count, sender) => {
        pair(sender, target).accepted += count;
      });
    for (const team of this.teams.values())
      for (const [sender, target] of team.pairs) pair(sender, target).legacyQueued += 1;
    return [...pairs.values()].sort(
      (a, b) => compareText(a.senderSessionId, b.senderSessionId) || compareText(a.targetSessionId, b.targetSessionId),
    );
  }

  /** The latest `maxListedClaims` claims in the views' order (by session, then entry), and how many there are. */
  private latestClaims(): { readonly messages: ClaimLatency[]; readonly messageCount: number } {
    const ids = [...this.sessions.keys()].sort(compareText);
    let messageCount = 0;
    for (const id of ids) messageCount += this.sessions.get(id)?.claims.length ?? 0;
    const latest: ClaimLatency[][] = [];
    let listed = 0;
    for (let at = ids.length - 1; at >= 0 && listed < maxListedClaims; at -= 1) {
      const claims = this.sessions.get(ids[at] as SessionId)?.claims ?? [];
      const taken = claims.slice(Math.max(0, claims.length - (maxListedClaims - listed)));
      latest.unshift(taken.map((claim) => claim.latency));
      listed += taken.length;
    }
    return { messages: latest.flat(), messageCount };
  }

  private answer(): BoundedStatistics {
    const teams = [...this.teams.values()]
      .map((counts) => ({ teamId: counts.teamId, counts }))
      .sort((a, b) => compareText(a.teamId, b.teamId));
    return {
      messagesPerPair: this.pairs(),
      claimLatency: { ...this.latestClaims(), seqs: this.seqs.summary(), ms: this.ms.summary() },
      undeliveredLegacyPerTeam: teams
        .filter(({ counts }) => counts.messageCount > 0)
        .map(({ teamId, counts }) => ({ teamId, undelivered: counts.undelivered, queued: counts.messageCount })),
      failures: teams.flatMap(({ teamId, counts }) =>
        counts.failure === undefined ? [] : [{ teamId, failure: counts.failure }],
      ),
    };
  }
}
