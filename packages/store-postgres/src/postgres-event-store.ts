import type { Client, Pool, QueryResultRow } from 'pg';
import {
  type AppendOptions,
  type AppendResult,
  AppendSignal,
  type EventStore,
  type EventToAppend,
  type GlobalPosition,
  type KnownRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type RetryPolicy,
  type StagedAppends,
  storeClosed,
  type StoredLink,
  type StreamName,
  streamNotFound,
  type SubscribeToAllOptions,
  type Subscription,
  assertValidBatch,
  catchUpSubscription,
  defaultRetryPolicy,
  retrying,
  sleep,
  streamPages,
  isStoreError,
  storeFailure,
} from '@teamlog/store';
import { postgresStagedAppends } from './postgres-staged-appends';
import { endOfAllSql, horizonSql, readAllPageSql } from './all-queries';
import { AppendListener } from './append-listener';
import { NotifiedHeads, appendedPayload } from './notified-heads';
import {
  type AppendOutcome,
  type GroupAppend,
  appendGroupParameters,
  appendGroupSql,
  outcomesOf,
} from './append-group';
import { errorCode, isConnectionFailure } from './connection-failure';
import { type EventRow, toRecordedEvent } from './event-row';
import { positionOf, positionParameters } from './global-position-mapping';
import { groupSize } from './group-size';
import { pinnedSubscription, type SubscriptionStart } from './pinned-subscription';
import { parsePgSnapshot } from './snapshot-visibility';
import { statementName } from './statement-name';
import { type LinkRow, storedLinksPageSql, toStoredLink } from './stored-links';
import { listStreamsSql, readBackwardsSql, readForwardsSql, streamHeadSql } from './stream-queries';

export interface PostgresEventStoreOptions {
  readonly clock?: () => Date;
  /** The most events one group commit writes (default 10 000); an append is never split. */
  readonly maxGroupEvents?: number;
  /** How often a live subscription reads again without a notification (default 500 ms). */
  readonly pollIntervalMs?: number;
  /** Retries of appends and reads after a dropped connection or a server restart. */
  readonly retry?: RetryPolicy;
  /** How long readAll waits for this store's own appends to pass the horizon (default 10 s); then it reads what is final. */
  readonly readYourWritesTimeoutMs?: number;
  /** Reconnects and retries, one line each, never with the password. */
  readonly log?: (line: string) => void;
  /** The encoded bytes one unit of staged appends may hold in memory until its commit (default 256 MiB). */
  readonly maxStagedBytes?: number;
  /**
   * How long a stream head this store committed or read is answered by `knownRevision` without
   * being confirmed again (default 1 s): bounds how long a write whose notification never came (its
   * writer died right after committing) can go unseen.
   */
  readonly headTrustMs?: number;
}

/** What the store needs from its connection: a pool for queries, a client factory for LISTEN, and a way to print errors without the password. */
export interface PostgresConnection {
  readonly pool: Pool;
  readonly connectListener: () => Client;
  /** A new connection of its own (not pooled, not connected yet), named `application_name` on the server. */
  readonly connectClient: (applicationName: string) => Client;
  /** The database URL without its password. */
  readonly database: string;
  readonly redact: (text: string) => string;
}

/** What the view store and the projection lead of this package share with the store they sit beside. */
export interface PostgresStoreContext {
  readonly connection: PostgresConnection;
  readonly retry: RetryPolicy;
  readonly log: (line: string) => void;
}

interface PendingAppend extends GroupAppend {
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

interface AllPage {
  readonly events: readonly RecordedEvent[];
  readonly horizon: bigint;
}

const pageSize = 1000;

/**
 * The PostgreSQL store: several processes and hosts append to one database; `$all` is read in
 * (transaction id, position) order below the visibility horizon, so a catch-up never misses an
 * event that commits late behind a position it has read (docs/scale-out.md).
 *
 * Group commit: the appends requested while no group is in flight are sent as one call of
 * teamlog.append_group, one transaction with a subtransaction per append (one append's conflict
 * fails only that append); every promise settles after the COMMIT, with synchronous_commit on.
 */
export class PostgresEventStore implements EventStore {
  private readonly appended = new AppendSignal();
  private readonly listener: AppendListener;
  private listening = false;
  /** Set when close starts: later appends and reads fail with StoreClosed. */
  private closing = false;
  private closed = false;
  private pending: PendingAppend[] = [];
  private commitScheduled = false;
  private inFlight: Promise<void> | undefined;
  private committedGroups = 0;
  private sentStatements = 0;
  /** The newest transaction id known to have committed events: this store's own, or notified. */
  private newestCommitted = 0n;
  private ownNewest: bigint | undefined;
  private readonly notifications = new Set<Promise<unknown>>();
  /** Heads known without a read: this store's commits and reads, forgotten on other writers' notifications. */
  private readonly heads: NotifiedHeads;
  /** Transactions this store committed lately: their notifications come back to its own listener. */
  private readonly ownTransactions = new Set<bigint>();
  private readonly clock: () => Date;
  private readonly maxGroupEvents: number;
  private readonly pollIntervalMs: number;
  private readonly retry: RetryPolicy;
  private readonly readYourWritesTimeoutMs: number;
  private readonly log: (line: string) => void;
  private readonly maxStagedBytes: number;

  constructor(
    private readonly connection: PostgresConnection,
    readonly schemaVersion: number,
    options: PostgresEventStoreOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.maxGroupEvents = options.maxGroupEvents ?? 10_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.retry = options.retry ?? defaultRetryPolicy;
    this.readYourWritesTimeoutMs = options.readYourWritesTimeoutMs ?? 10_000;
    this.log = options.log ?? (() => undefined);
    this.maxStagedBytes = options.maxStagedBytes ?? 256 * 1024 * 1024;
    // Every connection of the pool already has an 'error' listener (openPostgresStore, connection-error-handlers.ts).
    this.heads = new NotifiedHeads(options.headTrustMs ?? 1000);
    this.listener = new AppendListener({
      connect: connection.connectListener,
      onAppended: (transaction, streams) => this.notified(transaction, streams),
      onListening: (listening) => this.heads.listeningChanged(listening),
      retry: { ...this.retry, maxAttempts: Number.POSITIVE_INFINITY },
      log: this.log,
      describeError: (error) => this.describe(error),
    });
  }

  /** The database URL without its password. */
  get database(): string {
    return this.connection.database;
  }

  /** The connection, retry policy and log, for the views kept in the same database. */
  get context(): PostgresStoreContext {
    return { connection: this.connection, retry: this.retry, log: this.log };
  }

  /** Transactions committed by this store's appends (a group commit counts once). */
  get appendTransactions(): number {
    return this.committedGroups;
  }

  /** Statements this store sent on its pool (each one round trip; a retry counts again): appends, reads, notifications. */
  get statementsSent(): number {
    return this.sentStatements;
  }

  async appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    assertValidBatch(stream, events);
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({
        stream,
        events,
        expectedRevision: options.expectedRevision ?? 'any',
        recordedAt: this.clock(),
        resolve,
        reject,
      });
      this.scheduleCommit();
    });
  }

  /** A unit kept in memory and committed in one transaction of its own (see postgres-staged-appends.ts). */
  stageAppends(): StagedAppends {
    return postgresStagedAppends({
      connect: () => this.connection.pool.connect(),
      retry: (run) => this.withRetry('append', run),
      clock: this.clock,
      assertOpen: () => this.assertOpen(),
      maxStagedBytes: this.maxStagedBytes,
      committed: (transaction) => this.recordCommittedTransaction(transaction, undefined),
      failure: (operation, error) => this.failureOf(operation, error),
    });
  }

  /** The next group starts in the next turn of the event loop once the group in flight has committed. */
  private scheduleCommit(): void {
    if (this.commitScheduled || this.inFlight !== undefined || this.pending.length === 0) return;
    this.commitScheduled = true;
    setImmediate(() => this.startGroup());
  }

  private startGroup(): void {
    this.commitScheduled = false;
    const group = this.pending.splice(
      0,
      groupSize(
        this.pending.map((append) => append.events.length),
        this.maxGroupEvents,
      ),
    );
    if (group.length === 0) return;
    this.inFlight = this.commitGroup(group).finally(() => {
      this.inFlight = undefined;
      this.scheduleCommit();
    });
  }

  /**
   * One call, one transaction. After a dropped connection the whole group is sent again: its
   * appends carry the same event ids, so one that did commit comes back as the original result.
   */
  private async commitGroup(group: readonly PendingAppend[]): Promise<void> {
    const since = this.heads.mark();
    let rows: readonly QueryResultRow[];
    try {
      rows = (
        await this.withRetry('append', () => {
          this.sentStatements += 1;
          return this.connection.pool.query({
            name: statementName(appendGroupSql),
            text: appendGroupSql,
            values: appendGroupParameters(group),
          });
        })
      ).rows;
    } catch (error) {
      const failure = this.failureOf('append', error);
      group.forEach((append) => append.reject(failure));
      return;
    }
    this.committedGroups += 1;
    const outcomes = outcomesOf(group, rows);
    group.forEach((append, index) => {
      const outcome = outcomes[index] as AppendOutcome;
      if (outcome.ok)
        this.heads.confirm(
          append.stream,
          outcome.result.nextExpectedRevision < 0n ? undefined : outcome.result.nextExpectedRevision,
          since,
        );
    });
    this.recordCommitted(group, outcomes);
    group.forEach((append, index) => {
      const outcome = outcomes[index] as AppendOutcome;
      if (outcome.ok) append.resolve(outcome.result);
      else append.reject(outcome.error);
    });
  }

  private recordCommitted(group: readonly PendingAppend[], outcomes: readonly AppendOutcome[]): void {
    // One pass: the newest transaction that wrote, and the streams it wrote.
    let newest: bigint | undefined;
    const streams = new Set<StreamName>();
    outcomes.forEach((outcome, index) => {
      if (!outcome.ok || outcome.result.position.commit <= 0n) return;
      const transaction = outcome.result.position.commit;
      if (newest === undefined || transaction > newest) newest = transaction;
      streams.add((group[index] as PendingAppend).stream);
    });
    if (newest !== undefined) this.recordCommittedTransaction(newest, [...streams]);
  }

  /** `streams`: the streams the transaction wrote, named in the notification (undefined: listeners forget every head). */
  private recordCommittedTransaction(newest: bigint, streams: readonly StreamName[] | undefined): void {
    this.ownNewest = this.ownNewest === undefined || newest > this.ownNewest ? newest : this.ownNewest;
    this.ownTransactions.add(newest);
    if (this.ownTransactions.size > 4096)
      this.ownTransactions.delete(this.ownTransactions.values().next().value as bigint);
    this.committedElsewhere(newest);
    this.notifyOthers(streams === undefined ? newest.toString() : appendedPayload(newest, streams));
  }

  /** A notification: another writer's commit makes the heads of the streams it names unknown (all of them, when it names none). */
  private notified(transaction: bigint | undefined, streams: readonly StreamName[] | undefined): void {
    if (transaction === undefined || !this.ownTransactions.has(transaction)) this.heads.changedElsewhere(streams);
    this.committedElsewhere(transaction);
  }

  /** Tell the other processes' subscriptions; not awaited by the appends (they are durable already), awaited by close. */
  private notifyOthers(payload: string): void {
    this.sentStatements += 1;
    const sent = this.connection.pool
      .query('SELECT teamlog.notify_appended($1)', [payload])
      .catch((error: unknown) =>
        this.log(`teamlog postgres: could not notify subscribers (they will poll): ${this.describe(error)}`),
      );
    this.notifications.add(sent);
    void sent.finally(() => this.notifications.delete(sent));
  }

  private committedElsewhere(transaction: bigint | undefined): void {
    if (transaction !== undefined && transaction > this.newestCommitted) this.newestCommitted = transaction;
    this.appended.notify();
  }

  async *readStream(stream: StreamName, options: ReadStreamOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const last = await this.streamRevision(stream);
    if (last === undefined) throw streamNotFound(stream);
    const pages = streamPages<EventRow>(
      last,
      options,
      pageSize,
      (row) => BigInt(row.revision),
      (direction, from, to, count) =>
        direction === 'forwards'
          ? this.query<EventRow>('readStream', readForwardsSql, [stream, from.toString(), to.toString(), count])
          : this.query<EventRow>('readStream', readBackwardsSql, [stream, from.toString(), count]),
    );
    for await (const rows of pages) for (const row of rows) yield toRecordedEvent(row);
  }

  /** Every stored event's text and digest, stream by stream (the audit's chain check). */
  async *readStoredLinks(): AsyncGenerator<StoredLink> {
    this.assertOpen();
    let after: readonly [string, string] = ['', '-1'];
    for (;;) {
      const rows = await this.query<LinkRow>('readStoredLinks', storedLinksPageSql, [after[0], after[1], pageSize]);
      for (const row of rows) yield toStoredLink(row);
      const last = rows[rows.length - 1];
      if (last === undefined || rows.length < pageSize) return;
      after = [last.stream_name, last.revision];
    }
  }

  /** Reads what is final in `$all`, after waiting (briefly) until this store's own appends are. */
  async *readAll(options: ReadAllOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    await this.waitForOwnAppends();
    const from = options.fromPosition ?? 'start';
    let after: GlobalPosition | undefined = from === 'start' ? undefined : from;
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
    while (remaining > 0) {
      const limit = Math.min(pageSize, remaining);
      const page = await this.readAllPage(after, limit);
      for (const event of page.events) yield event;
      if (page.events.length < limit) return;
      remaining -= page.events.length;
      after = (page.events[page.events.length - 1] as RecordedEvent).position;
    }
  }

  private async readAllPage(after: GlobalPosition | undefined, limit: number): Promise<AllPage> {
    const rows = await this.query<EventRow & { horizon: string; transaction_id: string | null }>(
      'readAll',
      readAllPageSql,
      [...positionParameters(after), limit],
    );
    const horizon = BigInt(rows[0]?.horizon ?? '0');
    return { horizon, events: rows.filter((row) => row.transaction_id !== null).map((row) => toRecordedEvent(row)) };
  }

  private async horizon(): Promise<bigint> {
    const rows = await this.query<{ horizon: string }>('readAll', horizonSql, []);
    return BigInt(rows[0]?.horizon ?? '0');
  }

  /**
   * Read-your-writes for `$all`: an append is durable when it returns, but it is final in `$all`
   * only once every older transaction in the cluster has ended (usually within milliseconds). A
   * transaction left open elsewhere holds the horizon; after the timeout, readAll reads what is final.
   */
  private async waitForOwnAppends(): Promise<void> {
    const own = this.ownNewest;
    if (own === undefined) return;
    const deadline = Date.now() + this.readYourWritesTimeoutMs;
    for (let delay = 1; (await this.horizon()) <= own; delay = Math.min(delay * 2, 50)) {
      if (Date.now() >= deadline) {
        this.log(
          `teamlog postgres: readAll waited ${this.readYourWritesTimeoutMs} ms for an older transaction to end; reading what is final`,
        );
        return;
      }
      await sleep(delay);
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    this.startListening();
    const from = options.fromPosition ?? 'start';
    const start: Promise<SubscriptionStart> =
      from === 'end'
        ? this.endOfAll()
        : Promise.resolve({ after: from === 'start' ? undefined : from, alreadyVisible: undefined });
    return pinnedSubscription(start, (after) => this.liveSubscription(after));
  }

  /** Catch up from `after`, then follow: woken by notifications, reading again soon when a notified commit is not final yet, polling otherwise. */
  private liveSubscription(after: GlobalPosition | undefined): Subscription {
    let horizon = 0n;
    let quickRetries = 0;
    return catchUpSubscription(
      {
        readAfter: async (position, maxCount) => {
          if (this.closed) return [];
          const page = await this.readAllPage(position, maxCount);
          horizon = page.horizon;
          if (page.events.length > 0) quickRetries = 0;
          return page.events;
        },
        appendCount: () => this.appended.count,
        waitForAppend: (seen, signal) => {
          if (!this.closed && this.newestCommitted >= horizon) {
            quickRetries += 1;
            return sleep(Math.min(2 ** quickRetries, this.pollIntervalMs), signal);
          }
          return this.appended.wait(seen, signal, this.pollIntervalMs);
        },
      },
      after,
    );
  }

  /** "From the end": the last final position, and the snapshot, so events committed before now but not final yet are left out too. */
  private async endOfAll(): Promise<SubscriptionStart> {
    const rows = await this.query<{ snapshot: string; transaction_id: string | null; position: string | null }>(
      'subscribeToAll',
      endOfAllSql,
      [],
    );
    const row = rows[0];
    if (row === undefined)
      throw storeFailure('the server returned no snapshot', { failure: 'server', operation: 'subscribeToAll' });
    const after =
      row.transaction_id === null || row.position === null ? undefined : positionOf(row.transaction_id, row.position);
    return { after, alreadyVisible: parsePgSnapshot(row.snapshot) };
  }

  private startListening(): void {
    if (this.listening) return;
    this.listening = true;
    this.listener.start();
  }

  /** Another process's commit is covered once its notification arrives. */
  readonly knownRevisionCovers = 'notified';

  /**
   * The head this store committed or read, while its LISTEN connection is up and no other
   * writer's notification named the stream since (see NotifiedHeads); undefined until the
   * listener is up, and whenever only a read can tell.
   */
  knownRevision(stream: StreamName): KnownRevision | undefined {
    if (this.closing) return undefined;
    this.startListening();
    return this.heads.get(stream);
  }

  async streamRevision(stream: StreamName): Promise<bigint | undefined> {
    this.assertOpen();
    const since = this.heads.mark();
    const rows = await this.query<{ last_revision: string }>('streamRevision', streamHeadSql, [stream]);
    const last = rows[0] === undefined ? undefined : BigInt(rows[0].last_revision);
    this.heads.confirm(stream, last, since);
    return last;
  }

  /** Every stream with its last revision, in name order. */
  async listStreams(): Promise<Array<{ readonly streamName: StreamName; readonly lastRevision: bigint }>> {
    this.assertOpen();
    const rows = await this.query<{ stream_name: string; last_revision: string }>('listStreams', listStreamsSql, []);
    return rows.map((row) => ({ streamName: row.stream_name as StreamName, lastRevision: BigInt(row.last_revision) }));
  }

  /** Appends already requested are committed first; later ones fail with StoreClosed. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    while (this.inFlight !== undefined || this.pending.length > 0) {
      if (this.inFlight === undefined) this.startGroup();
      await this.inFlight;
    }
    this.closed = true;
    this.appended.notify();
    await Promise.all([...this.notifications]);
    await this.listener.close();
    await this.connection.pool.end();
  }

  private async query<R extends QueryResultRow>(
    operation: string,
    sql: string,
    parameters: readonly unknown[],
  ): Promise<R[]> {
    try {
      return (
        await this.withRetry(operation, () => {
          this.sentStatements += 1;
          return this.connection.pool.query<R>({ name: statementName(sql), text: sql, values: [...parameters] });
        })
      ).rows;
    } catch (error) {
      throw this.failureOf(operation, error);
    }
  }

  /** Run again after a dropped connection or a restarting server, with back-off; other errors are not retried. */
  private withRetry<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return retrying(run, {
      policy: this.retry,
      retryable: isConnectionFailure,
      stopped: () => this.closed,
      onRetry: ({ retry, delayMs, error }) =>
        this.log(
          `teamlog postgres: ${operation} on ${this.connection.database} failed (${this.describe(error)}); retry ${retry} in ${Math.round(delayMs)} ms`,
        ),
    });
  }

  private failureOf(operation: string, error: unknown): unknown {
    if (isStoreError(error, 'StoreClosed', 'StoreFailure')) return error;
    const failure = isConnectionFailure(error) ? 'unavailable' : 'server';
    return storeFailure(`${operation} on ${this.connection.database} failed: ${this.describe(error)}`, {
      failure,
      operation,
      serverCode: errorCode(error),
    });
  }

  private describe(error: unknown): string {
    return this.connection.redact(error instanceof Error ? error.message : String(error));
  }

  private assertOpen(): void {
    if (this.closing) throw storeClosed();
  }
}
