import type { DashboardStatistics } from '@teamlog/projections';

/** The most claimed messages `/api/statistics` lists one by one (the latest); the summaries cover all. */
export const maxListedClaims = 1000;

export type BoundedStatistics = Omit<DashboardStatistics, 'claimLatency'> & {
  readonly claimLatency: DashboardStatistics['claimLatency'] & { readonly messageCount: number };
};

/**
 * The statistics as the dashboard answers them: every claimed message's latency would make the
 * answer grow with the history, so only the latest `maxListedClaims` are listed; the summaries
 * (`seqs`, `ms`) and `messageCount` cover every one.
 */
export const boundedStatistics = (statistics: DashboardStatistics): BoundedStatistics => {
  const { messages } = statistics.claimLatency;
  return {
    ...statistics,
    claimLatency: {
      ...statistics.claimLatency,
      messages: messages.length > maxListedClaims ? messages.slice(-maxListedClaims) : messages,
      messageCount: messages.length,
    },
  };
};
