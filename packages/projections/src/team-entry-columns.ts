import * as t from 'io-ts';
import type { LegacyMessageEntry, MemberEntry, TaskEntry } from '@teamlog/domain';
import { ChangeTrackingMap } from './change-tracking-map';
import { LegacyMessageRow, MemberRow, TaskRow } from './team-rows';
import type { ViewRow } from './view-row-decoder';

/*
 * The Team view's rows as every view store keeps them, whatever its SQL: how a keyed entry
 * (member, task, legacy message) becomes the columns of its row and comes back, and which
 * entries a commit writes.
 */

/** How one kind of keyed team entry maps to the columns after its Lead and its key, and back. */
export interface TeamEntryColumns<V> {
  /** The column names, in the order of `values`. */
  readonly columns: readonly string[];
  /** The column holding the entry's JSON, and the one giving the fold's order. */
  readonly json: string;
  readonly order: string;
  /** The column values (JSON as text). */
  readonly values: (entry: V) => unknown[];
  readonly codec: t.Decoder<unknown, V>;
  /** The entry's shape from a row whose JSON column is parsed and integers are numbers. */
  readonly shape: (row: ViewRow) => Record<string, unknown>;
  readonly keyOf: (entry: V) => string;
}

/** Members and tasks are stored alike: the latest snapshot, keyed by its id, in order of first appearance. */
const snapshotColumns = <E extends MemberEntry | TaskEntry>(codec: t.Decoder<unknown, E>): TeamEntryColumns<E> => ({
  columns: ['first_seq', 'seq', 'snapshot'],
  json: 'snapshot',
  order: 'first_seq',
  values: (entry) => [entry.firstSeq, entry.seq, JSON.stringify(entry.snapshot)],
  codec,
  shape: (row) => ({ snapshot: row.snapshot, firstSeq: row.first_seq, seq: row.seq }),
  keyOf: (entry) => entry.snapshot.id,
});

export const memberColumns = snapshotColumns(MemberRow as t.Decoder<unknown, MemberEntry>);
export const taskColumns = snapshotColumns(TaskRow as t.Decoder<unknown, TaskEntry>);

export const legacyMessageColumns: TeamEntryColumns<LegacyMessageEntry> = {
  columns: ['source_version', 'queued_seq', 'delivered_seq', 'message'],
  json: 'message',
  order: 'queued_seq',
  values: (entry) => [entry.sourceVersion, entry.queuedSeq, entry.deliveredSeq ?? null, JSON.stringify(entry.message)],
  codec: LegacyMessageRow as t.Decoder<unknown, LegacyMessageEntry>,
  shape: (row) => ({
    message: row.message,
    sourceVersion: row.source_version,
    queuedSeq: row.queued_seq,
    ...(row.delivered_seq === null ? {} : { deliveredSeq: row.delivered_seq }),
  }),
  keyOf: (entry) => entry.message.id,
};

/** A team's record facts and delivery mismatches as read back from their rows. */
export const RecordFactRow = t.type(
  { seq: t.number, type: t.string, version: t.number, time: t.number, normalised: t.boolean },
  'TeamRecordFact',
);
export const MismatchRow = t.type(
  { messageId: t.string, seq: t.number, queuedTargetId: t.string, deliveredTargetId: t.string },
  'DeliveryMismatch',
);

/** What a commit does to one Lead's rows of an entry table. */
export interface EntryChangeVisitor<K extends string, V> {
  /** The map does not track changes: every row of the Lead goes, then each entry is put. */
  readonly whole: () => void;
  readonly put: (key: K, entry: V) => void;
  readonly drop: (key: K) => void;
}

/** Only the keys the map reports changed; a map that does not track changes is written whole. */
export const visitEntryChanges = <K extends string, V>(
  map: ReadonlyMap<K, V>,
  visit: EntryChangeVisitor<K, V>,
): void => {
  if (!(map instanceof ChangeTrackingMap)) {
    visit.whole();
    map.forEach((entry, key) => visit.put(key, entry));
    return;
  }
  for (const key of (map as ChangeTrackingMap<K, V>).changedKeys()) {
    const entry = map.get(key);
    if (entry === undefined) visit.drop(key);
    else visit.put(key, entry);
  }
};
