import { type EventStore, type MigrationReport, migrateStore } from '@teamlog/store';
import { valueFlag } from '../argument-parser';
import { usageError } from '../cli-errors';
import type { CliIo } from '../cli-io';
import { jsonFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { writeJson } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { type Progress, silentProgress } from '../progress-bar';
import { progressFor } from '../progress-for';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';

const countEvents = async (store: EventStore): Promise<number> => {
  let count = 0;
  for await (const _event of store.readAll()) count += 1;
  return count;
};

/** Copy with a bar when stderr is a terminal (the source is counted first so the bar has an end). */
const migrateWithProgress = async (from: EventStore, to: EventStore, io: CliIo): Promise<MigrationReport> => {
  const progress: Progress = io.stderrIsTerminal ? await progressFor(io, 'migrating') : silentProgress;
  if (io.stderrIsTerminal) progress.start(await countEvents(from));
  const abort = new AbortController();
  void io.untilInterrupted().then(() => abort.abort());
  try {
    return await migrateStore({
      from,
      to,
      signal: abort.signal,
      onProgress: (step) => progress.update(step.eventsRead, step.phase),
    });
  } finally {
    progress.finish();
  }
};

export const migrateCommand = defineCommand(
  {
    name: 'migrate',
    summary:
      'Copy every stream of one store into another (typically the SQLite file into PostgreSQL or EventStoreDB, or back), keeping ids and revisions, then verify.',
    positionals: [],
    flags: {
      from: valueFlag('STORE', 'the source store: a SQLite FILE (or postgres://..., esdb://...)'),
      to: valueFlag(
        'STORE',
        'the target store: postgres://user:password@host:port/db, esdb://host:port?tls=false, or a SQLite FILE',
      ),
      json: jsonFlag,
    },
    notes: [
      'Resumable: an interrupted migration (Ctrl-C) continues where it stopped when run again.',
      'Views are not copied; they are rebuilt from the target on first use.',
    ],
  },
  async ({ flags }, { io }) => {
    if (flags.from === undefined) throw usageError('migrate: --from STORE is required', 'migrate');
    if (flags.to === undefined) throw usageError('migrate: --to STORE is required', 'migrate');
    const from = resolveStoreLocation(flags.from, {}, io.cwd);
    const to = resolveStoreLocation(flags.to, {}, io.cwd);
    if (from.kind === 'memory' || to.kind === 'memory')
      throw usageError('migrate: :memory: is empty and keeps nothing; name a file or a URL', 'migrate');
    const report = await withStore(from, { access: 'read' }, (source) =>
      withStore(to, { access: 'create' }, (target) => migrateWithProgress(source.store, target.store, io)),
    );
    if (flags.json) writeJson(io, { from: describeStoreLocation(from), to: describeStoreLocation(to), ...report });
    else {
      io.stdout(
        `Migrated ${describeStoreLocation(from)} to ${describeStoreLocation(to)}: ${report.streams} streams, ${report.events} events ` +
          `(${report.eventsCopied} copied now, ${report.eventsAlreadyPresent} already there, ${report.appends} appends); verified.\n`,
      );
    }
    return ExitCode.ok;
  },
);
