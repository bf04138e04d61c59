import type Database from 'better-sqlite3';
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
  sqlBoolean,
  sqlNumber,
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
import { BatchedInsert } from './batched-insert';
import { type WriteStatement, writeStatement } from '../write-route';

export const teamTables = [
  'projection_teams',
  'projection_team_members',
  'projection_team_tasks',
  'projection_team_messages',
  'projection_team_records',
  'projection_team_mismatches',
] as const;

/** One kind of keyed team entry (member, task, legacy message) in its table. */
interface EntrySpec<V> extends TeamEntryColumns<V> {
  readonly table: string;
  /** The column holding the entry's id. */
  readonly key: string;
}

interface EntryTable<V> extends EntrySpec<V> {
  readonly put: BatchedInsert;
  readonly drop: WriteStatement;
  readonly dropAll: WriteStatement;
}

const memberSpec: EntrySpec<MemberEntry> = { ...memberColumns, table: 'projection_team_members', key: 'member_id' };
const taskSpec: EntrySpec<TaskEntry> = { ...taskColumns, table: 'projection_team_tasks', key: 'task_id' };
const messageSpec: EntrySpec<LegacyMessageEntry> = {
  ...legacyMessageColumns,
  table: 'projection_team_messages',
  key: 'message_id',
};

interface Collected {
  head: TeamHead;
  members: MemberEntry[];
  tasks: TaskEntry[];
  messages: LegacyMessageEntry[];
  records: TeamRecordFact[];
  mismatches: DeliveryMismatch[];
}

/**
 * The Team views in rows (schema in migrations/projections-sqlite/0002_team_rows.sql). A commit
 * writes the head of each changed team and only the member, task and message rows its maps report
 * changed, plus the record facts and mismatches added since the last commit.
 */
export class SqliteTeamRows {
  private readonly members: EntryTable<MemberEntry>;
  private readonly tasks: EntryTable<TaskEntry>;
  private readonly messages: EntryTable<LegacyMessageEntry>;
  private readonly putHead: WriteStatement;
  private readonly putRecord: BatchedInsert;
  private readonly putMismatch: BatchedInsert;
  private readonly dropTeam: WriteStatement[];

  constructor(
    private readonly db: Database.Database,
    private readonly rows: ViewRowDecoder,
  ) {
    this.members = this.entryTable(memberSpec);
    this.tasks = this.entryTable(taskSpec);
    this.messages = this.entryTable(messageSpec);
    this.dropTeam = teamTables.map((table) => writeStatement(db, `DELETE FROM ${table} WHERE lead_session_id = ?`));
    this.putHead = writeStatement(
      db,
      'INSERT OR REPLACE INTO projection_teams (lead_session_id, team_id, scope, next_task_number, has_records, failure) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.putRecord = new BatchedInsert(
      db,
      'INSERT OR REPLACE INTO projection_team_records (lead_session_id, record_index, seq, type, version, time, normalised)',
      7,
    );
    this.putMismatch = new BatchedInsert(
      db,
      'INSERT OR REPLACE INTO projection_team_mismatches (lead_session_id, mismatch_index, message_id, seq, queued_target_id, delivered_target_id)',
      6,
    );
  }

  /** Write what the batch changed (inside the view store's commit transaction). */
  write(state: ProjectionState): void {
    try {
      state.changes.teams.forEach((id) => this.writeTeam(state, id));
      this.flush();
    } finally {
      // A failed write rolls its transaction back: rows added and not written go with it.
      for (const batch of this.batches()) batch.clear();
    }
  }

  private batches(): BatchedInsert[] {
    return [this.members.put, this.tasks.put, this.messages.put, this.putRecord, this.putMismatch];
  }

  /** The rows added so far are written: before any delete from the same tables. */
  private flush(): void {
    for (const batch of this.batches()) batch.flush();
  }

  private writeTeam(state: ProjectionState, id: SessionId): void {
    const team = state.teams.get(id);
    if (team === undefined || !isWorthKeeping(team)) {
      this.flush();
      this.dropTeam.forEach((statement) => statement.run(id));
      return;
    }
    const head = teamHeadOf(team);
    this.putHead.run(
      id,
      head.teamId,
      head.scope ?? null,
      head.nextTaskNumber,
      head.hasRecords ? 1 : 0,
      head.failure === undefined ? null : JSON.stringify(head.failure),
    );
    this.writeEntries(id, team.state.members, this.members);
    this.writeEntries(id, team.state.tasks, this.tasks);
    this.writeEntries(id, team.state.messages, this.messages);
    this.writeFacts(id, team, state.changes.teamFactsCommitted.get(id) ?? { records: 0, mismatches: 0 });
  }

  load(): Map<SessionId, TeamProjection> {
    const collected = new Map<SessionId, Collected>();
    for (const row of this.db.prepare('SELECT * FROM projection_teams').all() as ViewRow[]) {
      const id = String(row.lead_session_id) as SessionId;
      collected.set(id, {
        head: this.head(row, id),
        members: [],
        tasks: [],
        messages: [],
        records: [],
        mismatches: [],
      });
    }
    const teamOf = (table: string, row: ViewRow, where: string): Collected => {
      const team = collected.get(String(row.lead_session_id) as SessionId);
      if (team === undefined) throw this.rows.corrupt(table, where, 'no projection_teams row for its lead_session_id');
      return team;
    };
    this.loadEntries(this.members, (row, where, entry) => teamOf(this.members.table, row, where).members.push(entry));
    this.loadEntries(this.tasks, (row, where, entry) => teamOf(this.tasks.table, row, where).tasks.push(entry));
    this.loadEntries(this.messages, (row, where, entry) =>
      teamOf(this.messages.table, row, where).messages.push(entry),
    );
    this.loadFacts(
      'projection_team_records',
      'record_index',
      RecordFactRow,
      (row) => ({
        seq: sqlNumber(row.seq),
        type: row.type,
        version: sqlNumber(row.version),
        time: sqlNumber(row.time),
        normalised: sqlBoolean(row.normalised),
      }),
      (row, where, fact) =>
        this.appendDense(
          teamOf('projection_team_records', row, where).records,
          fact as TeamRecordFact,
          row.record_index,
          'projection_team_records',
          where,
        ),
    );
    this.loadFacts(
      'projection_team_mismatches',
      'mismatch_index',
      MismatchRow,
      (row) => ({
        messageId: row.message_id,
        seq: sqlNumber(row.seq),
        queuedTargetId: row.queued_target_id,
        deliveredTargetId: row.delivered_target_id,
      }),
      (row, where, fact) =>
        this.appendDense(
          teamOf('projection_team_mismatches', row, where).mismatches,
          fact as DeliveryMismatch,
          row.mismatch_index,
          'projection_team_mismatches',
          where,
        ),
    );
    const teams = new Map<SessionId, TeamProjection>();
    collected.forEach((rows, id) => teams.set(id, teamFromRows(rows)));
    return teams;
  }

  private entryTable<V>(spec: EntrySpec<V>): EntryTable<V> {
    const { table, key, columns } = spec;
    return {
      ...spec,
      put: new BatchedInsert(
        this.db,
        `INSERT OR REPLACE INTO ${table} (lead_session_id, ${key}, ${columns.join(', ')})`,
        columns.length + 2,
      ),
      drop: writeStatement(this.db, `DELETE FROM ${table} WHERE lead_session_id = ? AND ${key} = ?`),
      dropAll: writeStatement(this.db, `DELETE FROM ${table} WHERE lead_session_id = ?`),
    };
  }

  private writeEntries<K extends string, V>(lead: SessionId, map: ReadonlyMap<K, V>, table: EntryTable<V>): void {
    visitEntryChanges(map, {
      whole: () => {
        table.put.flush();
        table.dropAll.run(lead);
      },
      put: (key, entry) => table.put.add([lead, key, ...table.values(entry)]),
      drop: (key) => {
        table.put.flush();
        table.drop.run(lead, key);
      },
    });
  }

  /** Record facts and mismatches are only ever appended: write those after the last commit's count. */
  private writeFacts(
    lead: SessionId,
    team: TeamProjection,
    committed: { readonly records: number; readonly mismatches: number },
  ): void {
    for (let index = committed.records; index < team.records.length; index += 1) {
      const fact = team.records[index] as TeamRecordFact;
      this.putRecord.add([lead, index, fact.seq, fact.type, fact.version, fact.time, fact.normalised ? 1 : 0]);
    }
    for (let index = committed.mismatches; index < team.mismatches.length; index += 1) {
      const mismatch = team.mismatches[index] as DeliveryMismatch;
      this.putMismatch.add([
        lead,
        index,
        mismatch.messageId,
        mismatch.seq,
        mismatch.queuedTargetId,
        mismatch.deliveredTargetId,
      ]);
    }
  }

  private head(row: ViewRow, id: SessionId): TeamHead {
    const table = 'projection_teams';
    return this.rows.decode(
      TeamHead,
      {
        teamId: row.team_id,
        nextTaskNumber: sqlNumber(row.next_task_number),
        hasRecords: sqlBoolean(row.has_records),
        ...(row.scope === null ? {} : { scope: row.scope }),
        ...(row.failure === null ? {} : { failure: this.rows.parse(row.failure, table, id) }),
      },
      table,
      id,
    );
  }

  /** Rows in the fold's order; each checked with its codec and against its key column. */
  private loadEntries<V>(spec: EntryTable<V>, add: (row: ViewRow, where: string, entry: V) => void): void {
    for (const row of this.db
      .prepare(`SELECT * FROM ${spec.table} ORDER BY lead_session_id, ${spec.order}`)
      .all() as ViewRow[]) {
      const key = String(row[spec.key]);
      const where = `${String(row.lead_session_id)}/${key}`;
      const columns: ViewRow = {};
      for (const [column, value] of Object.entries(row))
        columns[column] = column === spec.json ? this.rows.parse(value, spec.table, where) : sqlNumber(value);
      const entry = this.rows.decode(spec.codec, spec.shape(columns), spec.table, where);
      if (spec.keyOf(entry) !== key)
        throw this.rows.corrupt(
          spec.table,
          where,
          `${spec.key} does not match the entry's id ${JSON.stringify(spec.keyOf(entry))}`,
        );
      add(row, where, entry);
    }
  }

  private loadFacts<A>(
    table: string,
    index: string,
    codec: t.Decoder<unknown, A>,
    shape: (row: ViewRow) => unknown,
    add: (row: ViewRow, where: string, fact: A) => void,
  ): void {
    for (const row of this.db.prepare(`SELECT * FROM ${table} ORDER BY lead_session_id, ${index}`).all() as ViewRow[]) {
      const where = `${String(row.lead_session_id)}#${String(row[index])}`;
      add(row, where, this.rows.decode(codec, shape(row), table, where));
    }
  }

  private appendDense<F>(list: F[], fact: F, index: unknown, table: string, where: string): void {
    if (Number(index) !== list.length)
      throw this.rows.corrupt(table, where, `index is not dense (expected ${list.length})`);
    list.push(fact);
  }
}
