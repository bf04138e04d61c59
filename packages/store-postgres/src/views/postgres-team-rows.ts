import type { ClientBase } from 'pg';
import type * as t from 'io-ts';
import type { SessionId } from '@teamlog/events';
import type { LegacyMessageEntry, MemberEntry, TaskEntry } from '@teamlog/domain';
import {
  type DeliveryMismatch,
  isWorthKeeping,
  legacyMessageColumns,
  memberColumns,
  MismatchRow,
  type ProjectionState,
  RecordFactRow,
  taskColumns,
  type TeamEntryColumns,
  teamFromRows,
  TeamHead,
  teamHeadOf,
  type TeamProjection,
  type TeamRecordFact,
  type ViewRow,
  type ViewRowDecoder,
  visitEntryChanges,
} from '@teamlog/projections';
import { jsonColumn, viewRowOf } from './view-row';
import { type ViewTable, allRows, dropRows, dropRowsOf, putRows } from './view-table';
import {
  legacyMessagesTable,
  membersTable,
  mismatchesTable,
  recordsTable,
  tasksTable,
  teamTables,
  teamsTable,
} from './view-tables';

/** One kind of keyed team entry (member, task, legacy message) in its table. */
interface EntryKind<V> extends TeamEntryColumns<V> {
  readonly table: ViewTable;
}

const memberKind: EntryKind<MemberEntry> = { ...memberColumns, table: membersTable };
const taskKind: EntryKind<TaskEntry> = { ...taskColumns, table: tasksTable };
const messageKind: EntryKind<LegacyMessageEntry> = { ...legacyMessageColumns, table: legacyMessagesTable };

/** The rows one commit writes or deletes in one entry table. */
interface EntryChanges {
  readonly put: unknown[][];
  readonly drop: unknown[][];
  /** Leads whose map does not track changes: all their rows are replaced. */
  readonly whole: string[];
}

const noChanges = (): EntryChanges => ({ put: [], drop: [], whole: [] });

const collectEntries = <K extends string, V>(
  lead: SessionId,
  map: ReadonlyMap<K, V>,
  kind: EntryKind<V>,
  into: EntryChanges,
): void =>
  visitEntryChanges(map, {
    whole: () => into.whole.push(lead),
    put: (key, entry) => into.put.push([lead, key, ...kind.values(entry)]),
    drop: (key) => into.drop.push([lead, key]),
  });

/** Record facts and mismatches are only ever appended: the rows after the last commit's count. */
const newFacts = (
  lead: SessionId,
  team: TeamProjection,
  committed: { readonly records: number; readonly mismatches: number },
  records: unknown[][],
  mismatches: unknown[][],
): void => {
  team.records.slice(committed.records).forEach((fact, offset) => {
    records.push([lead, committed.records + offset, fact.seq, fact.type, fact.version, fact.time, fact.normalised]);
  });
  team.mismatches.slice(committed.mismatches).forEach((mismatch, offset) => {
    mismatches.push([
      lead,
      committed.mismatches + offset,
      mismatch.messageId,
      mismatch.seq,
      mismatch.queuedTargetId,
      mismatch.deliveredTargetId,
    ]);
  });
};

/**
 * Write what a batch changed in the Team views (inside the view store's commit transaction): the
 * head of each changed team, the member, task and message rows its maps report changed, and the
 * record facts and mismatches added since the last commit; a statement per table.
 */
export const writeTeamRows = async (client: ClientBase, state: ProjectionState): Promise<void> => {
  const dropped: SessionId[] = [];
  const heads: unknown[][] = [];
  const members = noChanges();
  const tasks = noChanges();
  const messages = noChanges();
  const records: unknown[][] = [];
  const mismatches: unknown[][] = [];
  state.changes.teams.forEach((id) => {
    const team = state.teams.get(id);
    if (team === undefined || !isWorthKeeping(team)) {
      dropped.push(id);
      return;
    }
    const head = teamHeadOf(team);
    heads.push([id, head.teamId, head.scope ?? null, head.nextTaskNumber, head.hasRecords, jsonColumn(head.failure)]);
    collectEntries(id, team.state.members, memberKind, members);
    collectEntries(id, team.state.tasks, taskKind, tasks);
    collectEntries(id, team.state.messages, messageKind, messages);
    newFacts(id, team, state.changes.teamFactsCommitted.get(id) ?? { records: 0, mismatches: 0 }, records, mismatches);
  });
  for (const table of teamTables) await dropRowsOf(client, table, dropped);
  await putRows(client, teamsTable, heads);
  await writeEntryChanges(client, membersTable, members);
  await writeEntryChanges(client, tasksTable, tasks);
  await writeEntryChanges(client, legacyMessagesTable, messages);
  await putRows(client, recordsTable, records);
  await putRows(client, mismatchesTable, mismatches);
};

/** Deletions first: a lead written whole loses its old rows before the new ones go in. */
const writeEntryChanges = async (client: ClientBase, table: ViewTable, changes: EntryChanges): Promise<void> => {
  await dropRowsOf(client, table, changes.whole);
  await dropRows(client, table, changes.drop);
  await putRows(client, table, changes.put);
};

interface Collected {
  readonly head: TeamHead;
  readonly members: MemberEntry[];
  readonly tasks: TaskEntry[];
  readonly messages: LegacyMessageEntry[];
  readonly records: TeamRecordFact[];
  readonly mismatches: DeliveryMismatch[];
}

const leadOf = (row: Record<string, unknown>): SessionId => String(row.lead_session_id) as SessionId;

/** The Team views as committed, each row checked with its codec; a bad row is a CorruptViewRow. */
export const loadTeamRows = async (
  client: ClientBase,
  decoder: ViewRowDecoder,
): Promise<Map<SessionId, TeamProjection>> => {
  const collected = new Map<SessionId, Collected>();
  for (const raw of await allRows(client, teamsTable)) {
    const row = viewRowOf(teamsTable, raw);
    const id = leadOf(row);
    const head = decoder.decode(
      TeamHead,
      {
        teamId: row.team_id,
        nextTaskNumber: row.next_task_number,
        hasRecords: row.has_records,
        ...(row.scope === null ? {} : { scope: row.scope }),
        ...(row.failure === null ? {} : { failure: row.failure }),
      },
      teamsTable.name,
      id,
    );
    collected.set(id, { head, members: [], tasks: [], messages: [], records: [], mismatches: [] });
  }
  const teamOf = (table: ViewTable, row: ViewRow, where: string): Collected => {
    const team = collected.get(leadOf(row));
    if (team === undefined) throw decoder.corrupt(table.name, where, 'no projection_teams row for its lead_session_id');
    return team;
  };
  const loadEntries = async <V>(kind: EntryKind<V>, add: (team: Collected, entry: V) => void): Promise<void> => {
    const keyColumn = (kind.table.columns[1] as readonly [string, string])[0];
    for (const raw of await allRows(client, kind.table)) {
      const row = viewRowOf(kind.table, raw);
      const key = String(row[keyColumn]);
      const where = `${leadOf(row)}/${key}`;
      const entry = decoder.decode(kind.codec, kind.shape(row), kind.table.name, where);
      if (kind.keyOf(entry) !== key)
        throw decoder.corrupt(
          kind.table.name,
          where,
          `${keyColumn} does not match the entry's id ${JSON.stringify(kind.keyOf(entry))}`,
        );
      add(teamOf(kind.table, row, where), entry);
    }
  };
  await loadEntries(memberKind, (team, entry) => team.members.push(entry));
  await loadEntries(taskKind, (team, entry) => team.tasks.push(entry));
  await loadEntries(messageKind, (team, entry) => team.messages.push(entry));
  /** Facts are dense by index: a missing index would shift every later one. */
  const loadFacts = async <A>(
    table: ViewTable,
    codec: t.Decoder<unknown, A>,
    shape: (row: ViewRow) => unknown,
    add: (team: Collected, fact: A, index: number, where: string) => void,
  ): Promise<void> => {
    const indexColumn = (table.columns[1] as readonly [string, string])[0];
    for (const raw of await allRows(client, table)) {
      const row = viewRowOf(table, raw);
      const where = `${leadOf(row)}#${String(row[indexColumn])}`;
      add(
        teamOf(table, row, where),
        decoder.decode(codec, shape(row), table.name, where),
        Number(row[indexColumn]),
        where,
      );
    }
  };
  const dense = <F>(table: ViewTable, list: F[], fact: F, index: number, where: string): void => {
    if (index !== list.length) throw decoder.corrupt(table.name, where, `index is not dense (expected ${list.length})`);
    list.push(fact);
  };
  await loadFacts(
    recordsTable,
    RecordFactRow,
    (row) => ({
      seq: row.seq,
      type: row.type,
      version: row.version,
      time: row.time,
      normalised: row.normalised,
    }),
    (team, fact, index, where) => dense(recordsTable, team.records, fact as TeamRecordFact, index, where),
  );
  await loadFacts(
    mismatchesTable,
    MismatchRow,
    (row) => ({
      messageId: row.message_id,
      seq: row.seq,
      queuedTargetId: row.queued_target_id,
      deliveredTargetId: row.delivered_target_id,
    }),
    (team, fact, index, where) => dense(mismatchesTable, team.mismatches, fact as DeliveryMismatch, index, where),
  );
  const teams = new Map<SessionId, TeamProjection>();
  collected.forEach((rows, id) => teams.set(id, teamFromRows(rows)));
  return teams;
};
