import {
  type AuditFinding,
  type DashboardStatistics,
  type EraRules,
  type InboxQuery,
  type InboxView,
  type KeptAudit,
  type OverviewCounts,
  type ProjectionState,
  type TeamView,
  TeamlogViews,
} from '@teamlog/projections';
import { type BoundedStatistics, boundedStatistics } from './bounded-statistics';
import type { KeptStatistics } from './kept-statistics';
import type { KeptTeams } from './kept-teams';

/**
 * The read API over one unchanging state (the live views at one checkpoint, or an as-of fold),
 * each whole-view read computed once: at 100k events a read of the teams, inboxes or audit takes
 * tens of milliseconds, and every panel of every page asks for them. Answers are shared, so the
 * routes only filter and map them, never change them.
 */
export class MemoizedViews extends TeamlogViews {
  private teamsRead: TeamView[] | undefined;
  private inboxRead: InboxView[] | undefined;
  private auditRead: AuditFinding[] | undefined;
  private statisticsRead: DashboardStatistics | undefined;
  private overviewRead: OverviewCounts | undefined;
  private boundedRead: BoundedStatistics | undefined;

  /** `kept`: the audit and statistics kept over this state's lineage (the live views), when there are. */
  constructor(
    state: ProjectionState,
    eraRules?: EraRules,
    private readonly keptReads: {
      readonly audit?: KeptAudit;
      readonly statistics?: KeptStatistics;
      readonly teams?: KeptTeams;
    } = {},
  ) {
    super(state, eraRules, keptReads.audit);
  }

  override teams(): TeamView[] {
    return (this.teamsRead ??= this.keptReads.teams?.read(this.state) ?? super.teams());
  }

  override inbox(query: InboxQuery = {}): InboxView[] {
    return Object.values(query).every((value) => value === undefined)
      ? (this.inboxRead ??= super.inbox())
      : super.inbox(query);
  }

  override audit(): AuditFinding[] {
    return (this.auditRead ??= super.audit());
  }

  /** The statistics as `/api/statistics` answers them (bounded-statistics.ts). */
  boundedStatistics(): BoundedStatistics {
    return (this.boundedRead ??=
      this.keptReads.statistics === undefined
        ? boundedStatistics(this.statistics())
        : this.keptReads.statistics.read(this.state));
  }

  override statistics(): DashboardStatistics {
    return (this.statisticsRead ??= super.statistics());
  }

  override overview(): OverviewCounts {
    return (this.overviewRead ??= super.overview());
  }
}
