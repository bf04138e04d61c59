import type { DashboardStatistics } from '@teamlog/projections';
import { boundedStatistics, maxListedClaims } from '../src/bounded-statistics';

const statisticsWith = (claims: number): DashboardStatistics =>
  ({
    messagesPerPair: [],
    claimLatency: {
      messages: Array.from({ length: claims }, (_, index) => ({ messageId: `m${index}` })),
      seqs: null,
      ms: null,
    },
    undeliveredLegacyPerTeam: [],
    failures: [],
  }) as unknown as DashboardStatistics;

describe('the statistics the dashboard answers', () => {
  it('lists only the latest claimed messages, and counts them all', () => {
    const bounded = boundedStatistics(statisticsWith(maxListedClaims + 5));
    expect(bounded.claimLatency.messageCount).toBe(maxListedClaims + 5);
    expect(bounded.claimLatency.messages).toHaveLength(maxListedClaims);
    expect(bounded.claimLatency.messages[0]).toEqual({ messageId: 'm5' });
  });

  it('lists every claimed message when there are few', () => {
    const bounded = boundedStatistics(statisticsWith(3));
    expect([bounded.claimLatency.messages.length, bounded.claimLatency.messageCount]).toEqual([3, 3]);
  });
});
