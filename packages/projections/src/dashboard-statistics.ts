import { type SessionId, type TeamId, isPeerSource } from '@teamlog/events';
import type { TeamFailure } from '@teamlog/domain';
import { compareText } from './compare-text';
import { acceptedMessages, senderOf } from './inbox-view';
import type { ProjectionState } from './projection-state';
import { readTeams } from './team-view';

export interface PairCount {
  readonly senderSessionId: SessionId;
  readonly targetSessionId: SessionId;
  /** Peer messages the target's inbox accepted from the sender. */
  readonly accepted: number;
  /** Legacy mailbox messages queued from the sender to the target (delivered or not). */
  readonly legacyQueued: number;
}

export interface LatencySummary {
  readonly count: number;
  readonly min: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
}

export interface ClaimLatency {
  readonly sessionId: SessionId;
  readonly messageId: string;
  readonly seqs: number;
  /** Absent when either event has no real time (a normalised fixture). */
  readonly ms?: number;
}

export interface DashboardStatistics {
  readonly messagesPerPair: readonly PairCount[];
  readonly claimLatency: {
    readonly messages: readonly ClaimLatency[];
    readonly seqs: LatencySummary | null;
    readonly ms: LatencySummary | null;
  };
  readonly undeliveredLegacyPerTeam: ReadonlyArray<{
    readonly teamId: TeamId;
    readonly undelivered: number;
    readonly queued: number;
  }>;
  readonly failures: ReadonlyArray<{ readonly teamId: TeamId; readonly failure: TeamFailure }>;
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;

export const summarise = (values: readonly number[]): LatencySummary | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    min: sorted[0] as number,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1] as number,
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
  };
};

const pairCounts = (state: ProjectionState): PairCount[] => {
  const pairs = new Map<
    string,
    { senderSessionId: SessionId; targetSessionId: SessionId; accepted: number; legacyQueued: number }
  >();
  const pair = (senderSessionId: SessionId, targetSessionId: SessionId) => {
    const key = `${senderSessionId}\u0000${targetSessionId}`;
    const counts = pairs.get(key) ?? { senderSessionId, targetSessionId, accepted: 0, legacyQueued: 0 };
    pairs.set(key, counts);
    return counts;
  };
  for (const { sessionId, entry } of acceptedMessages(state)) {
    const sender = senderOf(entry.source).sessionId;
    if (isPeerSource(entry.source) && sender !== undefined) pair(sender, sessionId).accepted += 1;
  }
  for (const team of state.teams.values()) {
    if (!team.state.hasRecords) continue;
    team.state.messages.forEach(({ message }) => (pair(message.senderId, message.targetId).legacyQueued += 1));
  }
  return [...pairs.values()].sort(
    (a, b) => compareText(a.senderSessionId, b.senderSessionId) || compareText(a.targetSessionId, b.targetSessionId),
  );
};

const claimLatencies = (state: ProjectionState): ClaimLatency[] =>
  acceptedMessages(state).flatMap(({ sessionId, entry, detail }) => {
    if (!isPeerSource(entry.source) || entry.status !== 'claimed' || entry.settledSeq === undefined) return [];
    const timed = !detail.normalised && detail.settledTime !== undefined;
    return [
      {
        sessionId,
        messageId: detail.messageId,
        seqs: entry.settledSeq - entry.acceptedSeq,
        ...(timed ? { ms: (detail.settledTime as number) - detail.time } : {}),
      },
    ];
  });

/** The numbers the dashboard shows, from the same views as the replay. */
export const readDashboardStatistics = (state: ProjectionState): DashboardStatistics => {
  const latencies = claimLatencies(state);
  const teams = readTeams(state);
  return {
    messagesPerPair: pairCounts(state),
    claimLatency: {
      messages: latencies,
      seqs: summarise(latencies.map((latency) => latency.seqs)),
      ms: summarise(latencies.flatMap((latency) => (latency.ms === undefined ? [] : [latency.ms]))),
    },
    undeliveredLegacyPerTeam: teams
      .filter((team) => team.legacyMessages.length > 0)
      .map((team) => ({
        teamId: team.teamId,
        undelivered: team.legacyMessages.filter((message) => message.status === 'undelivered').length,
        queued: team.legacyMessages.length,
      })),
    failures: teams.flatMap((team) => (team.failure === null ? [] : [{ teamId: team.teamId, failure: team.failure }])),
  };
};
