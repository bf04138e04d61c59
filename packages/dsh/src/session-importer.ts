import { promises as fs } from 'node:fs';
import { basename, relative, dirname, sep } from 'node:path';
import {
  type FormatVersion,
  type SessionHeaderRecord,
  type SessionId,
  isSnapshotFixtureHeader,
  isUnindexedPlaceholderId,
  scopeId,
} from '@teamlog/events';
import {
  type EventStore,
  type EventToAppend,
  type StagedAppends,
  sessionHeaderStream,
  sessionStream,
  isStoreError,
} from '@teamlog/store';
import { ChunkStager } from './chunk-stager';
import { type ImportRejection, isFileChangedDuringImport, isStoreRace, rejectionOf } from './file-fate';
import type { PrefetchedLog } from './log-prefetch';
import { stageFromSecondRead } from './stage-from-second-read';
import { sessionHeaderEventId, sessionHeaderGenerationEventId, sessionHeaderNormalisedEventId } from './event-ids';
import type { InvalidTeamRecord } from './event-line-processor';
import type { Recovery } from './recovery-scanner';
import { SessionLogRejected } from './session-log-errors';
import { type SessionLogHead, openSessionLog } from './session-log-reader';
import { headerEventType, readLatestHeader, relateStoredHeader, storedEventsNormalised } from './stored-header';
import { type ImportPlan, type ValidationInput, validateForImport } from './validate-for-import';

export interface ImportOptions {
  /** Events per append (default 2000); a smaller file is appended in one atomic append. */
  readonly batchEvents?: number;
  /** Bytes of source lines per append (default 4 MiB). */
  readonly batchBytes?: number;
  /** A line longer than this rejects the file as 'over-limit' (default 256 MiB). */
  readonly maxLineBytes?: number;
  /** JSON nested deeper than this rejects the file as 'over-limit' (default 512). */
  readonly maxJsonDepth?: number;
  /**
   * Estimated memory the validated events of a file may take to be appended from the read that
   * validated them (default 64 MiB; estimate: source line bytes + 384 bytes per event). A file
   * over it is read twice (validated, then appended from a second read), so memory stays bounded
   * whatever the file size. 0 always reads twice.
   */
  readonly singlePassBytes?: number;
  /** Re-runs of a file whose stream another writer changed meanwhile (default 3). */
  readonly retries?: number;
}

export interface FileImportOptions extends ImportOptions {
  /** Placeholder scope of a normalised snapshot fixture (default "."); see docs/historical-logs.md. */
  readonly scope?: string;
  /** The file name recorded in the header record (default: the path given). */
  readonly recordedFile?: string;
}

export type { ImportRejection } from './file-fate';

export interface FileImportResult {
  readonly file: string;
  /** The session id the log states. */
  readonly sessionId: SessionId | undefined;
  /** The id its streams are named after: `sessionId`, scoped for a normalised fixture. */
  readonly streamSessionId: SessionId | undefined;
  readonly formatVersion: FormatVersion | undefined;
  /** Events kept after recovery. */
  readonly events: number;
  /** Events this import wrote (0 when the store already held them, or another process wrote them first). */
  readonly appended: number;
  /** Events of the session the store held before this import. */
  readonly alreadyStored: number;
  readonly recovery: Recovery | null;
  readonly rejected?: ImportRejection;
  readonly unknownTypes: readonly string[];
  readonly inheritedCount: number;
  readonly normalised: boolean;
  readonly scope?: string;
  readonly legacyShapes: number;
  /** Team records kept verbatim although they do not decode (the team view's failure). */
  readonly invalidTeamRecords: readonly InvalidTeamRecord[];
}

const readOptionsOf = (options: ImportOptions): { maxLineBytes?: number; maxJsonDepth?: number } => ({
  ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
  ...(options.maxJsonDepth === undefined ? {} : { maxJsonDepth: options.maxJsonDepth }),
});

const defaults = { batchEvents: 2000, batchBytes: 4 * 1024 * 1024, retries: 3, singlePassBytes: 64 * 1024 * 1024 };

const headerRecordOf = (head: SessionLogHead, scope: string | undefined, file: string): SessionHeaderRecord => ({
  header: head.rawHeader,
  formatVersion: head.formatVersion,
  file,
  ...(head.normalised ? { normalised: true } : {}),
  ...(scope === undefined ? {} : { scope }),
});

/** The size of a raw file, which bounds its tail's (a zstd file's decoded size is known only once read). */
const rawFileBytes = async (
  file: string,
  head: SessionLogHead,
  ahead: PrefetchedLog | undefined,
): Promise<number | undefined> =>
  head.compression === 'none' ? await (ahead?.size ?? fs.stat(file).then((stat) => stat.size)) : undefined;

/** Stage the buffered tail chunk by chunk, letting go of each once staged (a store that folds as it stages keeps none). */
const stageBuffered = async (
  unit: StagedAppends,
  key: SessionId,
  alreadyStored: number,
  chunks: Array<readonly EventToAppend[]>,
): Promise<number> => {
  const stager = new ChunkStager(unit, sessionStream(key), alreadyStored);
  for (let index = 0; index < chunks.length; index += 1) {
    const chunk = chunks[index] as readonly EventToAppend[];
    chunks[index] = [];
    await stager.stage(chunk);
  }
  return stager.staged;
};

/** Run `work` on the unit and commit it; whatever fails, the unit is dropped and nothing is written. */
const inOneUnit = async <A>(unit: StagedAppends, work: (unit: StagedAppends) => Promise<A>): Promise<A> => {
  try {
    const result = await work(unit);
    await unit.commit();
    return result;
  } catch (error) {
    await unit.abort().catch(() => undefined);
    throw error;
  }
};

/** Snapshot fixtures are scoped by their directory, or by their file when the header id is `{{sessionId}}`-like. */
const scopeOf = (file: string, head: SessionLogHead, options: FileImportOptions): string | undefined => {
  if (!head.normalised && !isSnapshotFixtureHeader(head.rawHeader)) return undefined;
  const directory = options.scope ?? '.';
  return isUnindexedPlaceholderId(head.sessionId) ? `${directory}/${basename(file)}` : directory;
};

/** How the store relates to the file's header: whether a header record is staged, and which. */
interface HeaderPlan {
  readonly key: SessionId;
  readonly headerRecord: SessionHeaderRecord;
  readonly storedHeader: Awaited<ReturnType<typeof readLatestHeader>>;
  readonly relation: ReturnType<typeof relateStoredHeader> | undefined;
  readonly formatVersion: FormatVersion;
}

const needsHeader = ({ storedHeader, relation }: HeaderPlan): boolean =>
  storedHeader === undefined || relation === 'later-generation' || relation === 'normalisation-decided';

/** Stage the header record the store lacks (none when it holds this file's header already). */
const stageHeader = async (unit: StagedAppends, plan: HeaderPlan): Promise<void> => {
  const { key, headerRecord, storedHeader, relation } = plan;
  if (storedHeader === undefined) {
    await unit.append(
      sessionHeaderStream(key),
      [{ id: sessionHeaderEventId(key), type: headerEventType, data: headerRecord }],
      { expectedRevision: 'no_stream' },
    );
  } else if (relation === 'later-generation') {
    // The harness migrated the log and its events line up with the stored ones (checked while
    // validating): the new generation's header joins the old one, and its tail follows the stored events.
    await unit.append(
      sessionHeaderStream(key),
      [{ id: sessionHeaderGenerationEventId(key, plan.formatVersion), type: headerEventType, data: headerRecord }],
      { expectedRevision: storedHeader.revision },
    );
  } else if (relation === 'normalisation-decided') {
    // The header was stored while the file held it alone: the record that says what its first event line decided joins it.
    await unit.append(
      sessionHeaderStream(key),
      [{ id: sessionHeaderNormalisedEventId(key), type: headerEventType, data: headerRecord }],
      { expectedRevision: storedHeader.revision },
    );
  }
};

/**
 * One import of one file. On a store whose units may be staged while validating (SQLite), one
 * read: the header and each chunk of the tail are staged into one unit as the strict read
 * validates them, and the unit commits at the end of the file or is aborted at the first rejected
 * line (docs/rules.md#one-pass-import). Elsewhere, three steps: (1) validate: read the whole file
 * strictly and compare the prefix the store holds (validate-for-import.ts); (2) stage: the header
 * (if not stored) and the tail, in chunks, into one unit of the store, from the validating read's
 * buffer or from a second, fingerprint-checked read (stage-from-second-read.ts); (3) commit the
 * unit. A failure at any step writes nothing; the commit's expectations make a concurrent import
 * of the same session fail here (and be re-run), so `appended` counts what this process wrote.
 */
const importOnce = async (
  file: string,
  head: SessionLogHead,
  store: EventStore,
  options: FileImportOptions,
  ahead: PrefetchedLog | undefined,
): Promise<FileImportResult> => {
  const limits = {
    batchEvents: options.batchEvents ?? defaults.batchEvents,
    batchBytes: options.batchBytes ?? defaults.batchBytes,
  };
  const readLimits = { maxLineBytes: options.maxLineBytes, maxJsonDepth: options.maxJsonDepth };
  const scope = scopeOf(file, head, options);
  const key = scopeId(head.sessionId, scope);
  const headerRecord = headerRecordOf(head, scope, options.recordedFile ?? file);
  const storedHeader = await readLatestHeader(store, sessionHeaderStream(key));
  // What decided the session's normalisation: its stored events, unless this file has no event line to compare.
  const storedNormalised =
    storedHeader === undefined || head.headerOnly ? undefined : await storedEventsNormalised(store, sessionStream(key));
  const relation =
    storedHeader === undefined ? undefined : relateStoredHeader(file, storedHeader, headerRecord, storedNormalised);
  const header: HeaderPlan = { key, headerRecord, storedHeader, relation, formatVersion: head.formatVersion };
  const validation = {
    file,
    key,
    head,
    store,
    limits,
    ...readLimits,
    singlePassBytes: options.singlePassBytes ?? defaults.singlePassBytes,
    fileBytes: await rawFileBytes(file, head, ahead),
    ...(ahead === undefined ? {} : { opened: ahead.opened }),
  };
  // One unit either way; whether it may be staged while validating decides how the file is read.
  const unit = store.stageAppends();
  const { summary, alreadyStored, appended } =
    unit.stagesWhileValidating === true
      ? await importInOnePass(unit, header, validation)
      : await importAfterValidating(unit, header, validation);
  return {
    file,
    sessionId: head.sessionId,
    streamSessionId: key,
    formatVersion: head.formatVersion,
    events: summary.events,
    appended,
    alreadyStored,
    recovery: summary.recovery,
    unknownTypes: summary.unknownTypes,
    inheritedCount: summary.inheritedCount,
    normalised: head.normalised,
    ...(scope === undefined ? {} : { scope }),
    legacyShapes: summary.legacyShapes,
    invalidTeamRecords: summary.invalidTeamRecords,
  };
};

interface ImportOutcome {
  readonly summary: ImportPlan['summary'];
  readonly alreadyStored: number;
  readonly appended: number;
}

/** Stage the header, then each validated chunk as the read cuts it; commit at the end, or abort. */
const importInOnePass = async (
  unit: StagedAppends,
  header: HeaderPlan,
  validation: ValidationInput,
): Promise<ImportOutcome> => {
  let stager: ChunkStager | undefined;
  try {
    if (needsHeader(header)) await stageHeader(unit, header);
    const plan = await validateForImport({
      ...validation,
      ...(unit.batchEvents === undefined ? {} : { stageEvery: unit.batchEvents }),
      stageChunk: (events, alreadyStored) =>
        (stager ??= new ChunkStager(unit, sessionStream(header.key), alreadyStored)).stage(events),
    });
    const appended = stager?.staged ?? 0;
    if (appended === 0 && !needsHeader(header)) await unit.abort();
    else await unit.commit();
    return { summary: plan.summary, alreadyStored: plan.alreadyStored, appended };
  } catch (error) {
    await unit.abort().catch(() => undefined);
    throw error;
  }
};

/** Validate the whole file, then stage its tail (kept from that read, or read again) into one unit and commit it. */
const importAfterValidating = async (
  unit: StagedAppends,
  header: HeaderPlan,
  validation: ValidationInput,
): Promise<ImportOutcome> => {
  const plan = await validateForImport(validation).catch(async (error: unknown) => {
    await unit.abort().catch(() => undefined);
    throw error;
  });
  const hasTail = plan.summary.events > plan.alreadyStored;
  const appended =
    !needsHeader(header) && !hasTail
      ? await unit.abort().then(() => 0)
      : await inOneUnit(unit, async (unit) => {
          await stageHeader(unit, header);
          if (!hasTail) return 0;
          return plan.buffered === undefined
            ? stageFromSecondRead({ ...validation, unit, plan })
            : stageBuffered(unit, header.key, plan.alreadyStored, plan.buffered);
        });
  return { summary: plan.summary, alreadyStored: plan.alreadyStored, appended };
};

const rejectedResult = (
  file: string,
  error: unknown,
  head: SessionLogHead | undefined,
  options: FileImportOptions,
): FileImportResult => {
  const rejection = rejectionOf(file, error);
  const scope = head === undefined ? undefined : scopeOf(file, head, options);
  return {
    file,
    sessionId: head?.sessionId,
    streamSessionId: head === undefined ? undefined : scopeId(head.sessionId, scope),
    formatVersion: head?.formatVersion,
    events: 0,
    appended: 0,
    alreadyStored: 0,
    recovery: null,
    rejected: rejection,
    unknownTypes: [],
    inheritedCount: 0,
    normalised: head?.normalised ?? false,
    ...(scope === undefined ? {} : { scope }),
    legacyShapes: 0,
    invalidTeamRecords: [],
  };
};

/**
 * Import one session log file into a store. Idempotent (the same file twice appends nothing), a
 * grown log appends only its new tail, a log whose stored prefix differs is refused with nothing
 * written. The whole file is validated before anything is written. Never throws for a bad file:
 * the result says why it was rejected.
 */
export const importSessionLog = (
  file: string,
  store: EventStore,
  options: FileImportOptions = {},
): Promise<FileImportResult> => importWithRetries(file, store, options, undefined);

/**
 * `importSessionLog` of a file whose first reads were asked for ahead (`prefetchLog` with
 * `prefetchOptionsOf(options)`): its first attempt reads them, a re-run reads the file afresh.
 * Whatever the outcome, what was not read is closed.
 */
export const importPrefetchedLog = async (
  prefetched: PrefetchedLog,
  store: EventStore,
  options: FileImportOptions = {},
): Promise<FileImportResult> => {
  try {
    return await importWithRetries(prefetched.file, store, options, prefetched);
  } finally {
    await prefetched.release();
  }
};

/** The read options a prefetch of a file takes, as its import would read its head. */
export const prefetchOptionsOf = readOptionsOf;

const importWithRetries = async (
  file: string,
  store: EventStore,
  options: FileImportOptions,
  prefetched: PrefetchedLog | undefined,
): Promise<FileImportResult> => {
  const retries = options.retries ?? defaults.retries;
  let head: SessionLogHead | undefined;
  for (let attempt = 0; ; attempt += 1) {
    // The reads asked for ahead are the first attempt's: a re-run is for a file changed since.
    const ahead = attempt === 0 ? prefetched : undefined;
    try {
      head = (await (ahead?.reader ?? openSessionLog(file, readOptionsOf(options)))).head;
      return await importOnce(file, head, store, options, ahead);
    } catch (error) {
      // Another writer, or a file that grew between this import's reads: the import is run again from its first read.
      if ((isStoreRace(error) || isFileChangedDuringImport(error)) && attempt < retries) continue;
      // The store failed, not the file: the caller stops (exit 4); a rerun resumes, since an import is idempotent.
      if (isStoreError(error, 'StoreFailure')) throw error;
      return rejectedResult(file, error, head, options);
    }
  }
};

/** A directory under an import root that could not be listed, reported like a file rejected as unreadable. */
export const unreadableDirectoryResult = (directory: string, error: Error): FileImportResult =>
  rejectedResult(
    directory,
    new SessionLogRejected(
      'unreadable',
      directory,
      `cannot list this directory (${(error as NodeJS.ErrnoException).code ?? error.message}); the logs under it were not imported`,
    ),
    undefined,
    {},
  );

/** The placeholder scope of a file: its directory relative to the import root, "/"-separated ("." for the root). */
export const scopeOfFile = (root: string, file: string): string => {
  const relativeDirectory = relative(root, dirname(file));
  return relativeDirectory === '' ? '.' : relativeDirectory.split(sep).join('/');
};
