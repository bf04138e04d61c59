import { promises as fs } from 'fs';
import { basename, relative, dirname, sep } from 'path';
import {
  FormatVersion, SessionHeaderRecord, SessionId, isSnapshotFixtureHeader, isUnindexedPlaceholderId, scopeId,
} from '@teamlog/events';
import {
  DuplicateEventId, EventStore, EventToAppend, WrongExpectedVersion, sessionHeaderStream, sessionStream,
} from '@teamlog/store';
import { appendFromSecondRead } from './append-from-second-read';
import { ChunkAppender } from './chunk-appender';
import { sessionHeaderEventId, sessionHeaderGenerationEventId } from './event-ids';
import { InvalidTeamRecord } from './event-line-processor';
import { Recovery } from './recovery-scanner';
import { RejectionReason, SessionLogRejected } from './session-log-errors';
import { SessionLogHead, openSessionLog } from './session-log-reader';
import { headerEventType, readLatestHeader, relateStoredHeader } from './stored-header';
import { validateForImport } from './validate-for-import';

export interface ImportOptions {
  /** Events per append (default 2000); a smaller file is appended in one atomic append. */
  readonly batchEvents?: number;
  /** Bytes of source lines per append (default 4 MiB). */
  readonly batchBytes?: number;
  readonly maxLineBytes?: number;
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

export interface ImportRejection {
  readonly reason: RejectionReason;
  readonly message: string;
  readonly line?: number;
  readonly path?: string;
}

export interface FileImportResult {
  readonly file: string;
  /** The session id the log states. */
  readonly sessionId: SessionId | undefined;
  /** The id its streams are named after: `sessionId`, scoped for a normalised fixture. */
  readonly streamSessionId: SessionId | undefined;
  readonly formatVersion: FormatVersion | undefined;
  /** Events kept after recovery. */
  readonly events: number;
  /** Events this import appended (0 when the store already held them). */
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

const defaults = { batchEvents: 2000, batchBytes: 4 * 1024 * 1024, retries: 3, singlePassBytes: 64 * 1024 * 1024 };

const isStoreRace = (error: unknown): boolean => error instanceof WrongExpectedVersion || error instanceof DuplicateEventId;

const headerRecordOf = (head: SessionLogHead, scope: string | undefined, file: string): SessionHeaderRecord => ({
  header: head.rawHeader,
  formatVersion: head.formatVersion,
  file,
  ...(head.normalised ? { normalised: true } : {}),
  ...(scope === undefined ? {} : { scope }),
});

/** The size of a raw file, which bounds its tail's (a zstd file's decoded size is known only once read). */
const rawFileBytes = async (file: string, head: SessionLogHead): Promise<number | undefined> =>
  head.compression === 'none' ? (await fs.stat(file)).size : undefined;

const appendBuffered = async (store: EventStore, key: SessionId, alreadyStored: number, chunks: ReadonlyArray<readonly EventToAppend[]>): Promise<number> => {
  const appender = new ChunkAppender(store, sessionStream(key), alreadyStored);
  for (const chunk of chunks) await appender.append(chunk);
  return appender.appended;
};

/** Snapshot fixtures are scoped by their directory, or by their file when the header id is `{{sessionId}}`-like. */
const scopeOf = (file: string, head: SessionLogHead, options: FileImportOptions): string | undefined => {
  if (!head.normalised && !isSnapshotFixtureHeader(head.rawHeader)) return undefined;
  const directory = options.scope ?? '.';
  return isUnindexedPlaceholderId(head.sessionId) ? `${directory}/${basename(file)}` : directory;
};

const importOnce = async (file: string, head: SessionLogHead, store: EventStore, options: FileImportOptions): Promise<FileImportResult> => {
  const limits = { batchEvents: options.batchEvents ?? defaults.batchEvents, batchBytes: options.batchBytes ?? defaults.batchBytes };
  const scope = scopeOf(file, head, options);
  const key = scopeId(head.sessionId, scope);
  const headerRecord = headerRecordOf(head, scope, options.recordedFile ?? file);
  const storedHeader = await readLatestHeader(store, sessionHeaderStream(key));
  const relation = storedHeader === undefined ? undefined : relateStoredHeader(file, storedHeader, headerRecord);

  const plan = await validateForImport({
    file, key, head, store, limits,
    maxLineBytes: options.maxLineBytes,
    singlePassBytes: options.singlePassBytes ?? defaults.singlePassBytes,
    fileBytes: await rawFileBytes(file, head),
  });
  const { summary } = plan;
  let appended = 0;
  if (storedHeader === undefined) {
    await store.appendToStream(
      sessionHeaderStream(key),
      [{ id: sessionHeaderEventId(key), type: headerEventType, data: headerRecord }],
      { expectedRevision: 'no_stream' },
    );
  } else if (relation === 'later-generation') {
    // The harness migrated the log and its events line up with the stored ones (checked above):
    // the new generation's header joins the old one, and its tail follows the stored events.
    await store.appendToStream(
      sessionHeaderStream(key),
      [{ id: sessionHeaderGenerationEventId(key, head.formatVersion), type: headerEventType, data: headerRecord }],
      { expectedRevision: storedHeader.revision },
    );
  }
  if (summary.events > plan.alreadyStored) {
    appended = plan.buffered === undefined
      ? await appendFromSecondRead({ file, key, head, store, plan, limits, maxLineBytes: options.maxLineBytes })
      : await appendBuffered(store, key, plan.alreadyStored, plan.buffered);
  }
  return {
    file,
    sessionId: head.sessionId,
    streamSessionId: key,
    formatVersion: head.formatVersion,
    events: summary.events,
    appended,
    alreadyStored: plan.alreadyStored,
    recovery: summary.recovery,
    unknownTypes: summary.unknownTypes,
    inheritedCount: summary.inheritedCount,
    normalised: head.normalised,
    ...(scope === undefined ? {} : { scope }),
    legacyShapes: summary.legacyShapes,
    invalidTeamRecords: summary.invalidTeamRecords,
  };
};

const rejectedResult = (file: string, error: unknown, head: SessionLogHead | undefined, options: FileImportOptions): FileImportResult => {
  const rejection: ImportRejection =
    error instanceof SessionLogRejected
      ? { reason: error.reason, message: error.message, ...(error.line === undefined ? {} : { line: error.line }), ...(error.path === undefined ? {} : { path: error.path }) }
      : isStoreRace(error)
        ? { reason: 'store-conflict', message: `${file}: another writer kept changing the session stream: ${(error as Error).message}` }
        : { reason: 'unreadable', message: `${file}: ${error instanceof Error ? error.message : String(error)}` };
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
export const importSessionLog = async (file: string, store: EventStore, options: FileImportOptions = {}): Promise<FileImportResult> => {
  const retries = options.retries ?? defaults.retries;
  let head: SessionLogHead;
  try {
    head = (await openSessionLog(file, options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes })).head;
  } catch (error) {
    return rejectedResult(file, error, undefined, options);
  }
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await importOnce(file, head, store, options);
    } catch (error) {
      if (isStoreRace(error) && attempt < retries) continue;
      return rejectedResult(file, error, head, options);
    }
  }
};

/** The placeholder scope of a file: its directory relative to the import root, "/"-separated ("." for the root). */
export const scopeOfFile = (root: string, file: string): string => {
  const relativeDirectory = relative(root, dirname(file));
  return relativeDirectory === '' ? '.' : relativeDirectory.split(sep).join('/');
};
