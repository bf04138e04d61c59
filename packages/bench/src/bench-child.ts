import { performance } from 'node:perf_hooks';
import { isLeft } from 'fp-ts/Either';
import { decodeWith } from '@teamlog/events';
import { importSessionLog, scanSessionLog } from '@teamlog/dsh';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { ChildRequest, type ChildResult, resultPrefix } from './child-protocol';
import { parseEveryLine } from './json-parse-baseline';
import { processIo } from './proc-io';
import { ownModulesLoaded } from './own-modules';
import { peakRssFromProc } from './proc-status';
import { createSchemaFile, groupsOf, openRawInserter } from './raw-insert-baseline';
import { openBenchSqliteStore } from './bench-sqlite-store';
import { inMemoryReplayTarget, replayLogs, sqliteReplayTarget, viewCounts } from './replay-case';
import { startMemorySampling } from './memory-sampler';
import { type RunUsage, runUsageBetween, usageDetail } from './run-usage';
import { sendConcurrently, startTeam } from './send-case';
import { measureEmmettAppends, measureRawInserts, measureStoreAppends } from './postgres-append-case';
import { measurePostgresSends } from './postgres-send-case';
import { measurePostgresViews } from './postgres-views-case';
import { dumpRowsAfter, lastPosition, readRows } from './stored-rows';

/* One measurement per process: a fresh heap, its own peak RSS, and its own CPU profile when asked. */

interface Measured {
  readonly elapsedMs: number;
  readonly count: number;
  readonly detail: Record<string, number | string>;
}

const timed = async <T>(
  work: () => Promise<T>,
): Promise<{ readonly value: T; readonly elapsedMs: number; readonly usage: RunUsage }> => {
  const usageBefore = process.resourceUsage();
  const started = performance.now();
  const value = await work();
  const elapsedMs = performance.now() - started;
  return { value, elapsedMs, usage: runUsageBetween(usageBefore, process.resourceUsage()) };
};

const measure = async (request: ChildRequest): Promise<Measured> => {
  switch (request.case) {
    case 'parse-baseline': {
      const { value, elapsedMs, usage } = await timed(() => parseEveryLine(request.root));
      return {
        elapsedMs,
        count: value.events,
        detail: { files: value.files, lines: value.lines, bytes: value.bytes, ...usageDetail(usage) },
      };
    }
    case 'replay': {
      const target =
        request.store === 'memory'
          ? inMemoryReplayTarget()
          : sqliteReplayTarget(request.dbFile, request.unchained === true, request.writerThread === true);
      const { value, elapsedMs, usage } = await timed(() =>
        replayLogs(request.root, target.store, target.projectionsOf),
      );
      const detail = {
        ...usageDetail(usage),
        importMs: value.importMs,
        viewsMs: value.viewsMs,
        files: value.files,
        rejected: value.rejected,
        folded: value.folded,
        ...viewCounts(value.projections),
      };
      await target.close();
      return { elapsedMs, count: value.events, detail };
    }
    case 'send': {
      const store = openBenchSqliteStore(request.dbFile, request.unchained === true);
      const team = await startTeam(store, request.members);
      const before = lastPosition(store);
      const transactionsBefore = store.appendTransactions;
      const { value, elapsedMs } = await timed(() => sendConcurrently(team, request.senders, request.messages));
      const transactions = store.appendTransactions - transactionsBefore;
      await team.teamlog.dispose();
      const rows = await dumpRowsAfter(store, before, request.rowsFile);
      await store.close();
      return {
        elapsedMs,
        count: value,
        detail: {
          senders: request.senders,
          rows,
          rowsPerMessage: rows / Math.max(1, value),
          transactions,
          messagesPerTransaction: value / Math.max(1, transactions),
        },
      };
    }
    case 'raw-insert': {
      await createSchemaFile(request.dbFile);
      const rows = readRows(request.rowsFile);
      const inserter = openRawInserter(request.dbFile);
      const groups = groupsOf(rows, request.rowsPerTransaction ?? 1);
      const { elapsedMs } = await timed(async () => groups.forEach((group) => inserter.insert(group)));
      inserter.close();
      return { elapsedMs, count: rows.length, detail: { transactions: groups.length } };
    }
    case 'read-log': {
      const { value, elapsedMs } = await timed(() => scanSessionLog(request.file));
      return {
        elapsedMs,
        count: value.events,
        detail: { lines: value.lines, peakBufferedBytes: value.peakBufferedBytes },
      };
    }
    case 'replay-log': {
      const store = SqliteEventStore.open(request.dbFile);
      const { value, elapsedMs } = await timed(async () => {
        // As `teamlog replay` runs it: the views fold inline while the log is imported.
        const projections = await sqliteProjections(store);
        const detach = projections.foldInline();
        const imported = await timed(() => importSessionLog(request.file, store).finally(() => detach?.()));
        const folded = await timed(() => projections.catchUp());
        return {
          imported: imported.value,
          importMs: imported.elapsedMs,
          folded: folded.value,
          viewsMs: folded.elapsedMs,
        };
      });
      await store.close();
      const rejected = value.imported.rejected?.message ?? '';
      return {
        elapsedMs,
        count: value.imported.events,
        detail: {
          importMs: value.importMs,
          viewsMs: value.viewsMs,
          appended: value.imported.appended,
          folded: value.folded,
          rejected,
        },
      };
    }
    case 'postgres-append':
      return measureStoreAppends(request.url, request.writers, request.appends);
    case 'postgres-raw-insert':
      return measureRawInserts(request.url, request.writers, request.appends);
    case 'emmett-append':
      return measureEmmettAppends(request.url, request.writers, request.appends);
    case 'postgres-send':
      return measurePostgresSends(request.url, request.members, request.senders, request.messages);
    case 'postgres-views':
      return measurePostgresViews(request.url, request.views);
    default: {
      const unreachable: never = request;
      throw new Error(`unknown case ${JSON.stringify(unreachable)}`);
    }
  }
};

const main = async (): Promise<void> => {
  const decoded = decodeWith(ChildRequest, 'request')(JSON.parse(process.argv[2] ?? 'null'));
  if (isLeft(decoded)) throw decoded.left;
  const sampler = startMemorySampling(25);
  const ioBefore = processIo();
  const measured = await measure(decoded.right);
  const ioAfter = processIo();
  const sampled = sampler.stop();
  // Storage bytes of the whole case (setup included): shows when a case is bound by disk writes.
  const io: Record<string, number> =
    ioBefore === undefined || ioAfter === undefined
      ? {}
      : { storageWriteMiB: (ioAfter.writeBytes - ioBefore.writeBytes) / 1024 ** 2 };
  const memory = {
    peakHeapUsedMiB: sampled.peakHeapUsedBytes / 1024 ** 2,
    peakExternalMiB: sampled.peakExternalBytes / 1024 ** 2,
  };
  const result: ChildResult = {
    case: decoded.right.case,
    ...measured,
    // `ownModules`: 1 when this child runs as one bundle, as the CLI ships (run-child.ts).
    detail: { ...measured.detail, ...io, ...memory, ownModules: ownModulesLoaded() },
    peakRssBytes: peakRssFromProc() ?? 0,
    sampledPeakRssBytes: sampled.peakRssBytes,
  };
  process.stdout.write(`${resultPrefix}${JSON.stringify(result)}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
