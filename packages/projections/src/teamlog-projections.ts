import type { SessionId } from '@teamlog/events';
import type { Detach, EventStore, GlobalPosition } from '@teamlog/store';
import { type AuditFinding, readAudit } from './attribution-audit';
import { type DashboardStatistics, readDashboardStatistics } from './dashboard-statistics';
import { type EraRules, referenceEraRules } from './era-rules';
import { InMemoryViewStore } from './in-memory-view-store';
import { SessionFoldUndo } from './session-fold-undo';
import { KeptAudit } from './kept-audit';
import { type OverviewCounts, readOverviewCounts } from './overview-counts';
import { type InboxQuery, type InboxView, readInbox } from './inbox-view';
import { ProjectionRunner, type ProjectionRunnerOptions } from './projection-runner';
import { type ProjectionState, clearChanges } from './projection-state';
import { type ReplayView, readReplayView } from './replay-view';
import type { SessionFacts } from './session-facts';
import { inMemoryProjection, oneShotProjection, teamlogProjection } from './teamlog-projection';
import { type TeamView, readTeams } from './team-view';
import { type AsOf, foldViewsAsOf } from './views-as-of';
import type { ViewStore } from './view-store';
import { type RevokedSession, revokedSessions, visibleState } from './visible-state';

export interface TeamlogProjectionsOptions extends ProjectionRunnerOptions {
  readonly eraRules?: EraRules;
  /**
   * In-memory views read once, by `views().replay()` (a one-shot `teamlog replay`): what only the
   * other reads show (a legacy message's content) is not kept.
   */
  readonly oneShot?: boolean;
}

/** The read API over the views, for any state (the committed views, or a fold as of a moment). */
export class TeamlogViews {
  /** The views without revoked sessions (visible-state.ts): what every read below sees. */
  readonly state: ProjectionState;
  /** Sessions a follower revoked (docs/rules.md#import-revoked). */
  readonly revoked: readonly RevokedSession[];

  /**
   * `kept`, when given, must have been kept over this state's lineage (the same views as they
   * grew) with the same era rules: the audit then costs what changed since its last read.
   */
  constructor(
    private readonly everything: ProjectionState,
    private readonly eraRules: EraRules = referenceEraRules,
    private readonly kept?: KeptAudit,
  ) {
    this.state = visibleState(everything);
    this.revoked = revokedSessions(everything);
  }

  /** `teams`, `inbox` and `audit` of `teamlog replay --json`. */
  replay(): ReplayView {
    return readReplayView(this.everything, { eraRules: this.eraRules });
  }

  teams(): TeamView[] {
    return readTeams(this.state);
  }

  inbox(query: InboxQuery = {}): InboxView[] {
    return readInbox(this.state, query);
  }

  audit(): AuditFinding[] {
    return this.kept === undefined ? readAudit(this.everything, this.eraRules) : [...this.kept.read(this.everything)];
  }

  statistics(): DashboardStatistics {
    return readDashboardStatistics(this.state);
  }

  /** The headline counts, from the sizes the folds keep (and the kept audit's count, when there is one). */
  overview(): OverviewCounts {
    const findings = this.kept === undefined ? this.audit().length : this.kept.count(this.everything);
    return readOverviewCounts(this.state, findings);
  }

  session(id: SessionId): SessionFacts | undefined {
    return this.state.sessions.get(id);
  }
}

/**
 * teamlog's views over a store: a checkpointed runner plus the read API. The views live wherever
 * the view store keeps them: in memory (rebuilt on every start), or in a store adapter's own
 * database (`@teamlog/store-sqlite`, `@teamlog/store-postgres`), where they survive restarts.
 */
export class TeamlogProjections {
  private readonly runner: ProjectionRunner<ProjectionState>;
  private readonly kept: KeptAudit;

  private constructor(
    private readonly store: EventStore,
    views: ViewStore<ProjectionState>,
    private readonly options: TeamlogProjectionsOptions,
  ) {
    this.runner = new ProjectionRunner(store, teamlogProjection, views, options);
    this.kept = new KeptAudit(options.eraRules);
  }

  /** The views a view store keeps for `store`, loaded and ready to read or catch up. */
  static async open(
    store: EventStore,
    views: ViewStore<ProjectionState>,
    options: TeamlogProjectionsOptions = {},
  ): Promise<TeamlogProjections> {
    const projections = new TeamlogProjections(store, views, options);
    await projections.runner.load();
    return projections;
  }

  static inMemory(store: EventStore, options: TeamlogProjectionsOptions = {}): Promise<TeamlogProjections> {
    const projection =
      options.oneShot === true ? oneShotProjection(options.eraRules ?? referenceEraRules) : inMemoryProjection;
    const views = new InMemoryViewStore(projection, clearChanges, undefined, new SessionFoldUndo());
    return TeamlogProjections.open(store, views, options);
  }

  get checkpoint(): GlobalPosition | undefined {
    return this.runner.checkpoint;
  }

  catchUp(): Promise<number> {
    return this.runner.catchUp();
  }

  rebuild(): Promise<number> {
    return this.runner.rebuild();
  }

  /**
   * Fold the views inline while this process appends (an import): see ProjectionRunner.foldInline.
   * Undefined where the store or the view store cannot; then catch up after appending.
   */
  foldInline(): Detach | undefined {
    return this.runner.foldInline();
  }

  start(): void {
    this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  waitFor(position: GlobalPosition): Promise<void> {
    return this.runner.waitFor(position);
  }

  /** The read API over the views as they are now. */
  views(): TeamlogViews {
    return new TeamlogViews(this.runner.state, this.options.eraRules, this.kept);
  }

  /** The read API over the views as of a position or a time ("what did the roster look like then"). */
  async viewsAsOf(asOf: AsOf): Promise<TeamlogViews> {
    return new TeamlogViews(await foldViewsAsOf(this.store, asOf), this.options.eraRules);
  }
}
