import * as t from 'io-ts';

/* What the bench asks of a measuring child process, and what the child reports back (one JSON line). */

export const ChildRequest = t.union(
  [
    t.type({ case: t.literal('parse-baseline'), root: t.string }),
    // `unchained`: a SQLite store at the schema before the hash chains, to measure their cost in the same run.
    // `writerThread`: units written on a second thread (opt-in), to measure what it gains in the same run.
    t.intersection([
      t.type({
        case: t.literal('replay'),
        root: t.string,
        store: t.keyof({ memory: null, sqlite: null }),
        dbFile: t.string,
      }),
      t.partial({ unchained: t.boolean, writerThread: t.boolean }),
    ]),
    t.intersection([
      t.type({
        case: t.literal('send'),
        dbFile: t.string,
        members: t.number,
        senders: t.number,
        messages: t.number,
        rowsFile: t.string,
      }),
      t.partial({ unchained: t.boolean }),
    ]),
    t.intersection([
      t.type({ case: t.literal('raw-insert'), dbFile: t.string, rowsFile: t.string }),
      t.partial({ rowsPerTransaction: t.number }),
    ]),
    t.type({ case: t.literal('read-log'), file: t.string }),
    t.type({ case: t.literal('replay-log'), file: t.string, dbFile: t.string }),
    t.type({ case: t.literal('postgres-append'), url: t.string, writers: t.number, appends: t.number }),
    t.type({ case: t.literal('postgres-raw-insert'), url: t.string, writers: t.number, appends: t.number }),
    t.type({ case: t.literal('emmett-append'), url: t.string, writers: t.number, appends: t.number }),
    t.type({
      case: t.literal('postgres-send'),
      url: t.string,
      members: t.number,
      senders: t.number,
      messages: t.number,
    }),
    t.type({ case: t.literal('postgres-views'), url: t.string, views: t.keyof({ memory: null, postgres: null }) }),
  ],
  'ChildRequest',
);
export type ChildRequest = t.TypeOf<typeof ChildRequest>;
export type ChildCase = ChildRequest['case'];

export const ChildResult = t.type(
  {
    case: t.string,
    /** Wall time of the measured work only (setup and checks excluded). */
    elapsedMs: t.number,
    /** What the throughput counts: events replayed or parsed, messages accepted, rows inserted. */
    count: t.number,
    /** The kernel's VmHWM for the child (0 where /proc is missing). */
    peakRssBytes: t.number,
    sampledPeakRssBytes: t.number,
    /** Checks that the work really happened (teams folded, rows per message, ...). */
    detail: t.record(t.string, t.union([t.number, t.string])),
  },
  'ChildResult',
);
export type ChildResult = t.TypeOf<typeof ChildResult>;

/** The line that carries the result on the child's stdout (anything else printed there is ignored). */
export const resultPrefix = 'bench-result ';
export type RequestOf<C extends ChildCase> = Extract<ChildRequest, { readonly case: C }>;
