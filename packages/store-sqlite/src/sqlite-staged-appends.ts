import type Database from 'better-sqlite3';
import type { ChainCursor } from './sqlite-event-chain';
import { eventColumns } from './event-rows';
import type { StagingThread } from './sqlite-staging-thread';
import type { StagedRow } from './staged-row-buffer';
import { FoldAhead, type FoldAheadHost } from './fold-ahead';
import {
  duplicateEventId,
  type EventToAppend,
  type GlobalPosition,
  type RecordedEvent,
  type StageAppendsOptions,
  type StagedAppends,
  type StagedStreamResult,
  StagingLedger,
  type StreamName,
  assertExpectedRevision,
  assertValidBatch,
} from '@teamlog/store';

/** What a unit needs from the store that opened it. */
export interface StagingHost extends FoldAheadHost {
  readonly db: Database.Database;
  /** The store's hash-chain cursor, which the copy advances through teamlog_chain_next. */
  readonly chain: ChainCursor;
  readonly clock: () => Date;
  readonly assertOpen: () => void;
  /** Whether commit participants take part (inline projections): they get the unit's events inside its transaction. */
  readonly hasParticipants: () => boolean;
  /** Inside the commit's transaction, one page of the unit's events after another, in `$all` order; a throw rolls the unit back. */
  readonly prepareParticipants: (events: readonly RecordedEvent[]) => void;
  /** Events of the store after a position, in order (to hand a large unit's events back page by page). */
  readonly eventsAfter: (position: bigint, maxCount: number) => RecordedEvent[];
  /** The commit is durable (or failed after the participants were prepared). */
  readonly committed: (results: readonly StagedStreamResult[]) => void;
  /** Encoded bytes of the events whose objects the unit keeps for its participants (default 64 MiB). */
  readonly maxKeptBytes?: number;
  /** The second thread whose scratch file the rows are staged into. */
  readonly stagingThread: StagingThread;
}

/**
 * Encoded bytes of events whose objects a unit keeps to hand its participants (none parsed back),
 * when its caller holds them anyway (`callerHoldsEvents`: a single-pass import). Otherwise, or past
 * this, the unit's events are handed back in pages read from the store inside the commit, so
 * memory stays bounded.
 */
const maxKeptBytes = 64 * 1024 * 1024;
const participantPage = 2_000;

const toPosition = (position: number | bigint): GlobalPosition => {
  const value = BigInt(position);
  return { commit: value, prepare: value };
};

let nextUnit = 0;

/** The schema name the staging thread's scratch file is attached as during a commit. */
const threadSchema = 'teamlog_staging';

const isConstraint = (error: unknown, code: string): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === code;

/**
 * A unit of staged appends on a SQLite store's connection (see StagedAppends in @teamlog/store)
 * staged on the opt-in second thread (sqlite-staging-thread.ts): its rows wait in the thread's
 * scratch file and the commit copies them into `events` in one IMMEDIATE transaction. Without the
 * thread a store writes each row once instead (sqlite-written-unit.ts).
 */
export const sqliteStagedAppends = (host: StagingHost, options: StageAppendsOptions = {}): StagedAppends => {
  const { db } = host;
  host.assertOpen();
  const unit = (nextUnit += 1);
  const ledger = new StagingLedger();
  /** The staged objects by stream, while participants take part and the unit is small enough. */
  let kept: Map<StreamName, EventToAppend[]> | undefined =
    host.hasParticipants() && options.callerHoldsEvents === true ? new Map() : undefined;
  let keptBytes = 0;
  const thread = host.stagingThread;
  const chained = host.chain.chained;
  const drop = (): void => thread.drop(unit);
  /** With a staging thread: the digest each stream's staged chain starts from (its last stored event's when staging began). */
  const chainStarts = new Map<StreamName, string | undefined>();
  const lastDigest = chained
    ? db.prepare<[string], { digest: string | null }>(
        'SELECT digest FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
      )
    : undefined;
  const stage = async (stream: StreamName, first: number, rows: readonly StagedRow[]): Promise<void> => {
    if (first === 0) chainStarts.set(stream, lastDigest?.get(stream)?.digest ?? undefined);
    await thread.stage(unit, stream, first, chained, chainStarts.get(stream), rows);
  };

  /** The statements that read a unit's staged rows from `table` (the thread's scratch file, attached). */
  const stagedStatements = (table: string) => ({
    // Rows are read in rowid order, so teamlog_chain_next chains them in revision order.
    copy: db.prepare(
      `INSERT INTO events (${eventColumns(chained).join(', ')})
       SELECT stream_name, ? + offset, event_id, type, data, metadata, ?${chained ? ', teamlog_chain_next(type, data, metadata)' : ''}
         FROM ${table} WHERE unit = ? AND stream_name = ? ORDER BY rowid`,
    ),
    /** The rows with the digests the staging thread chained (valid while the stream's head is the one they start from). */
    copyChained: chained
      ? db.prepare(
          `INSERT INTO events (${eventColumns(chained).join(', ')})
             SELECT stream_name, ? + offset, event_id, type, data, metadata, ?, digest
               FROM ${table} WHERE unit = ? AND stream_name = ? ORDER BY rowid`,
        )
      : undefined,
    clash: db.prepare<[number], { event_id: string; stream_name: string }>(
      `SELECT s.event_id, s.stream_name FROM ${table} s JOIN main.events e ON e.event_id = s.event_id WHERE s.unit = ? LIMIT 1`,
    ),
    twice: db.prepare<[number], { event_id: string; stream_name: string }>(
      `SELECT event_id, MIN(stream_name) AS stream_name FROM ${table} WHERE unit = ? GROUP BY event_id HAVING COUNT(*) > 1 LIMIT 1`,
    ),
  });
  type StagedStatements = ReturnType<typeof stagedStatements>;
  const head = db.prepare<[string], { revision: number | bigint; position: number | bigint }>(
    'SELECT revision, position FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
  );
  const headRevision = (stream: StreamName): bigint | undefined => {
    const row = head.get(stream);
    return row === undefined ? undefined : BigInt(row.revision);
  };

  const ahead = new FoldAhead(host, () => host.clock().getTime());
  const lastPosition = db.prepare<[], { position: number | bigint | null }>(
    'SELECT MAX(position) AS position FROM events',
  );

  /** Inside the transaction: the participants get the unit's events, from the kept objects or read back page by page. */
  const handToParticipants = (
    before: bigint,
    results: readonly StagedStreamResult[],
    recordedAt: number,
    foldedAhead: boolean,
  ): void => {
    if (!host.hasParticipants()) return;
    // The participants folded every event as it was staged: they only write what they hold.
    if (foldedAhead) {
      host.prepareParticipants([]);
      return;
    }
    if (kept !== undefined) {
      const recorded: RecordedEvent[] = [];
      for (const result of results) {
        const events = kept.get(result.streamName) ?? [];
        const first = result.position.commit - BigInt(events.length) + 1n;
        const firstRevision = result.nextExpectedRevision - BigInt(events.length) + 1n;
        events.forEach((event, index) => {
          const position = first + BigInt(index);
          recorded.push({
            streamName: result.streamName,
            revision: firstRevision + BigInt(index),
            position: { commit: position, prepare: position },
            id: event.id,
            type: event.type,
            data: event.data,
            metadata: event.metadata,
            recordedAt: new Date(recordedAt),
          });
        });
      }
      if (recorded.length > 0) host.prepareParticipants(recorded);
      return;
    }
    for (let after = before; ; ) {
      const page = host.eventsAfter(after, participantPage);
      if (page.length > 0) host.prepareParticipants(page);
      if (page.length < participantPage) return;
      after = (page[page.length - 1] as RecordedEvent).position.commit;
    }
  };

  const write = db.transaction((statements: StagedStatements, now: number): StagedStreamResult[] => {
    const before = BigInt(lastPosition.get()?.position ?? 0);
    const foldedAhead = ahead.holds(before, headRevision);
    // Another connection committed since the fold: the participants start again from their committed state.
    if (!foldedAhead) ahead.restore();
    const recordedAt = foldedAhead ? (ahead.recordedAt ?? now) : now;
    const heads = ledger.streams.map((staged) => {
      const row = head.get(staged.stream);
      const last = row === undefined ? undefined : BigInt(row.revision);
      assertExpectedRevision(staged.stream, staged.expected, last);
      return { staged, last, lastPosition: row?.position };
    });
    const results = heads.map(({ staged, last, lastPosition: previous }): StagedStreamResult => {
      if (staged.events === 0) {
        const position = previous ?? lastPosition.get()?.position ?? 0;
        return {
          streamName: staged.stream,
          events: 0,
          nextExpectedRevision: last ?? -1n,
          position: toPosition(position),
        };
      }
      const base = last === undefined ? 0n : last + 1n;
      const { copyChained } = statements;
      const chainedAhead =
        copyChained !== undefined &&
        chainStarts.get(staged.stream) === (lastDigest?.get(staged.stream)?.digest ?? undefined);
      if (!chainedAhead) host.chain.seek(staged.stream, base);
      const { lastInsertRowid } = (chainedAhead ? copyChained : statements.copy).run(
        base,
        recordedAt,
        unit,
        staged.stream,
      );
      const revision = base + BigInt(staged.events) - 1n;
      return {
        streamName: staged.stream,
        events: staged.events,
        nextExpectedRevision: revision,
        position: toPosition(lastInsertRowid),
      };
    });
    handToParticipants(
      before,
      results.filter((result) => result.events > 0),
      recordedAt,
      foldedAhead,
    );
    return results;
  });

  return {
    stagesWhileValidating: true,
    append: async (stream: StreamName, events: readonly EventToAppend[], options) => {
      host.assertOpen();
      assertValidBatch(stream, events);
      // Encoded before staging: a value JSON cannot hold fails this call and stages nothing. The
      // writer's own text of the data is kept as it is (docs/rules.md#stored-data-bytes).
      const rows = events.map(
        (event) =>
          [
            event.id,
            event.type,
            event.dataText ?? JSON.stringify(event.data),
            event.metadata === undefined ? null : JSON.stringify(event.metadata),
          ] as const,
      );
      const first = ledger.streams.find((staged) => staged.stream === stream)?.events ?? 0;
      ledger.stage(stream, events.length, options);
      if (kept !== undefined) {
        const objects = kept.get(stream) ?? [];
        for (const event of events) objects.push(event);
        kept.set(stream, objects);
        keptBytes += rows.reduce((sum, row) => sum + row[2].length + (row[3]?.length ?? 0), 0);
        if (keptBytes > (host.maxKeptBytes ?? maxKeptBytes)) kept = undefined;
      }
      try {
        await stage(stream, first, rows);
        // The participants fold from these batches: nothing needs keeping for the commit.
        if (host.hasParticipants() && ahead.stage(stream, first, events, headRevision)) kept = undefined;
      } catch (error) {
        drop();
        ahead.restore();
        if (!ledger.finished) ledger.finish();
        throw error;
      }
    },
    commit: async () => {
      ledger.finish();
      let attached = false;
      try {
        await thread.flush();
        host.assertOpen();
        // Outside any transaction (ATTACH cannot run in one): the thread's rows are read from its file.
        db.prepare(`ATTACH DATABASE ? AS ${threadSchema}`).run(thread.file);
        attached = true;
        const statements = stagedStatements(`${threadSchema}.staged_events`);
        const { clash, twice } = statements;
        let results: StagedStreamResult[];
        try {
          results = write.immediate(statements, host.clock().getTime());
        } catch (error) {
          ahead.abandon();
          if (!isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE')) throw error;
          const stored = clash.get(unit);
          if (stored !== undefined)
            throw duplicateEventId(
              stored.event_id as EventToAppend['id'],
              stored.stream_name as StreamName,
              'the id is already stored; nothing of the unit was written',
            );
          const repeated = twice.get(unit);
          if (repeated === undefined) throw error;
          throw duplicateEventId(
            repeated.event_id as EventToAppend['id'],
            repeated.stream_name as StreamName,
            'the id is staged twice in one unit; nothing of the unit was written',
          );
        }
        ahead.settle();
        host.committed(results);
        return results;
      } catch (error) {
        ahead.restore();
        throw error;
      } finally {
        kept = undefined;
        if (attached && db.open) db.exec(`DETACH DATABASE ${threadSchema}`);
        drop();
      }
    },
    abort: async () => {
      if (ledger.finished) return;
      ledger.finish();
      kept = undefined;
      drop();
      ahead.restore();
    },
  };
};
