import { relative, sep } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { type EventStore, sessionStream } from '@teamlog/store';
import { ChunkStager } from './chunk-stager';
import type { SessionLogEvent } from './event-line-processor';
import { type FileSignature, compareSignatures, signatureOf } from './file-signature';
import { LogTail } from './log-tail';
import { type FileImportResult, type ImportOptions, importSessionLog, scopeOfFile } from './session-importer';
import type { DiscoveredLog } from './session-file-discovery';
import { SessionLogRejected } from './session-log-errors';
import { type ImportRejection, followedFileFate, isStoreRace, rejectionOf } from './file-fate';
import { holdsUnrevokedPart, revokeImport } from './import-revocation';
import { defaultSetAsideMs, isSetAside, setAside, shouldSetAside } from './file-set-aside';
import { openSessionLog } from './session-log-reader';
import { eventToAppendEncoder } from './stored-event-codec';
import { PacedImport } from './paced-import';
import { type SupersedingImport, importSupersedingGeneration } from './generation-supersession';

/** What a follower shares between its logs. */
export interface FollowContext {
  readonly store: EventStore;
  /** The directory scopes and recorded file names are relative to (as `importSessionLogs` does). */
  readonly rootDirectory: string;
  readonly importOptions: ImportOptions;
  /**
   * How long one look may read a growing log's tail before it gives the other logs their turn
   * (default 200 ms); the rest is read by the next batch, which the follower schedules at once.
   */
  readonly sliceMs?: number;
  /** The clock slices are measured with (default `performance.now`; tests pass their own). */
  readonly now?: () => number;
  /** A file whose refusal took this long is set aside until it changes (default 10 s; file-set-aside.ts). */
  readonly setAsideMs?: number;
}

/** What one look at a log did; a look that found nothing new returns nothing. */
export interface LogChange {
  readonly file: string;
  /** The session stream's id (scoped for a snapshot fixture), when the file's header was read. */
  readonly streamSessionId: SessionId | undefined;
  readonly appended: number;
  /** A new header record: the first import of the log, or a later generation (the harness migrated it). */
  readonly header: boolean;
  /** One line for a person: the log cannot be followed as it is now. Said once until it changes. */
  readonly warning?: string;
  /** The look stopped at the end of its slice with more of the log to read: look again soon. */
  readonly more?: boolean;
}

/** What a whole-file import of a followed log did: the importer's result, or a later generation's that superseded the stored one. */
interface FollowedImport {
  readonly result: FileImportResult;
  readonly superseding?: SupersedingImport;
}

/** A whole-file import in slices, with what the look that started it knew. */
interface PendingImport {
  readonly paced: PacedImport<FollowedImport>;
  readonly file: string;
  readonly signature: FileSignature;
  readonly openTail: boolean;
}

const defaultBatchEvents = 2000;
export const defaultSliceMs = 200;

const isGone = (error: unknown): boolean =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');

/**
 * One log (a stem of a directory) as it grows. The first look imports the file whole with
 * `importSessionLog` (strict, idempotent, the stored prefix compared event by event). When the
 * file grows, it is imported whole once more (so a file changed behind the follower's back is
 * checked), then a LogTail is opened on it and from then on only what is appended is read and
 * appended. A file that shrinks below what was read, is replaced or touched is checked whole by
 * the importer again; whatever it refuses is a one-line warning and nothing is written. A higher
 * generation beside the file (the harness migrated the log) is imported whole: the importer
 * accepts it when its events line up with the stored ones, and refuses it otherwise.
 */
export class FollowedLog {
  private file: string | undefined;
  private signature: FileSignature | undefined;
  private tail: LogTail | undefined;
  private key: SessionId | undefined;
  private formatVersion: number | undefined;
  /** Events of the session stream as this follower last wrote or saw them. */
  private stored = 0;
  /** The most events this file was seen to hold: a file that holds fewer lost some. */
  private known = 0;
  private warned: string | undefined;
  /** The recovery rule's stop, said once per file (a whole import of it keeps the same events). */
  private stopWarned: string | undefined;
  /** The last tail read stopped at its slice's end: the file holds more than was read. */
  private unfinished = false;
  /** A whole-file import whose slice ended before it did: the next look lets it read on. */
  private pending: PendingImport | undefined;

  constructor(private readonly context: FollowContext) {}

  /** Look at the log's current file (the highest generation); import what it holds that the store does not. */
  async look(log: DiscoveredLog): Promise<LogChange | undefined> {
    // An import under way is finished before the file is looked at again (it reads what the file holds as it goes).
    if (this.pending !== undefined) return this.continueImport(this.pending);
    const signature = signatureOf(log.file);
    if (signature === undefined) return undefined; // gone meanwhile: the directory's next look forgets it
    if (this.file !== log.file) {
      const migrated = this.file !== undefined;
      this.file = log.file;
      this.tail = undefined;
      this.stopWarned = undefined;
      this.known = 0; // a new generation may be written in parts: it catches up with the stored events
      return this.importWhole(log.file, signature, migrated);
    }
    const change = this.signature === undefined ? 'replaced' : compareSignatures(this.signature, signature);
    switch (change) {
      case 'same':
        return this.unfinished && this.tail !== undefined ? this.readTail(this.tail, signature) : undefined;
      case 'grown':
        return this.tail === undefined
          ? this.importWhole(log.file, signature, true)
          : this.readTail(this.tail, signature);
      case 'shrunk':
        return this.shrunk(log.file, signature);
      case 'touched':
      case 'replaced':
        this.tail = undefined;
        return this.importWhole(log.file, signature, true);
      default: {
        const unreachable: never = change;
        return unreachable;
      }
    }
  }

  private async shrunk(file: string, after: FileSignature): Promise<LogChange | undefined> {
    if (this.tail !== undefined && after.size >= this.tail.consumed) {
      // The writer cut a torn tail the follower had not read: nothing imported is gone.
      this.signature = after;
      return undefined;
    }
    this.tail = undefined;
    return this.importWhole(file, after, false);
  }

  private async importWhole(file: string, signature: FileSignature, openTail: boolean): Promise<LogChange | undefined> {
    this.signature = signature;
    const { rootDirectory, store, importOptions } = this.context;
    const recorded = this.recordedFile(file);
    // Set aside by this follower or an earlier one (a restart) and unchanged since: not read again.
    if (await isSetAside(store, recorded, signature)) return undefined;
    const paced = new PacedImport(
      file,
      async (): Promise<FollowedImport> => {
        const result = await importSessionLog(file, store, {
          ...importOptions,
          scope: scopeOfFile(rootDirectory, file),
          recordedFile: recorded,
        });
        if (result.rejected?.reason !== 'prefix-mismatch' || result.streamSessionId === undefined) return { result };
        // A later generation that renumbered its seqs: the one-shot replay takes it (generation-supersession.ts).
        const superseding = await importSupersedingGeneration({
          file,
          store,
          key: result.streamSessionId,
          recordedFile: recorded,
          ...importOptions,
        });
        return superseding === undefined ? { result } : { result: superseding.result, superseding };
      },
      this.context.sliceMs ?? defaultSliceMs,
      this.context.now ?? (() => performance.now()),
    );
    return this.continueImport({ paced, file, signature, openTail });
  }

  /** Stop an import under way (the follower stops, or the log is gone): it writes nothing. */
  async dispose(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    await pending?.paced.cancel();
  }

  /** Let a whole-file import read for one slice; one that has not finished has the next batch look again. */
  private async continueImport(pending: PendingImport): Promise<LogChange | undefined> {
    this.pending = pending;
    const step = await pending.paced.step();
    if (!step.done) return { file: pending.file, streamSessionId: this.key, appended: 0, header: false, more: true };
    this.pending = undefined;
    return this.imported(pending, step.value);
  }

  private async imported(pending: PendingImport, done: FollowedImport): Promise<LogChange | undefined> {
    const { file, signature, openTail } = pending;
    const { result, superseding } = done;
    const { store } = this.context;
    const recorded = this.recordedFile(file);
    if (result.rejected !== undefined) {
      this.tail = undefined;
      const aside = shouldSetAside(
        result.rejected,
        pending.paced.readingMs,
        this.context.setAsideMs ?? defaultSetAsideMs,
      );
      if (aside) await setAside(store, recorded, signature, result.rejected);
      const change = await this.refused(file, result.rejected, result.streamSessionId ?? this.key);
      return aside && change?.warning !== undefined
        ? { ...change, warning: `${change.warning}; set aside: it is not read again until it changes` }
        : change;
    }
    if (result.events < this.known) {
      return this.warn(
        file,
        `${file}: the file now holds ${result.events} events, fewer than the ${this.known} already imported from it (it shrank or was rewritten); nothing more is imported from it until it holds them again`,
        result,
      );
    }
    this.warned = undefined;
    this.known = result.events;
    // A later generation was accepted: the importer added its header record (the first contact's is not reported).
    const header = this.formatVersion !== undefined && result.formatVersion !== this.formatVersion;
    this.formatVersion = result.formatVersion;
    this.key = result.streamSessionId;
    this.stored = result.alreadyStored + result.appended;
    let appended = result.appended;
    if (superseding !== undefined) {
      // Its seqs are stored after the supersession record, not at their own revisions: every growth is imported whole.
      this.tail = undefined;
      const superseded = header || superseding.fresh;
      return appended > 0 || superseded ? { file, streamSessionId: this.key, appended, header: superseded } : undefined;
    }
    if (openTail && result.events >= this.stored) {
      const opened = await this.openTail(file);
      if (opened.warning !== undefined) return { ...opened, appended: appended + opened.appended, header };
      appended += opened.appended;
      // The tail's first read (from the start of the file) ended at its slice: the next batch reads on.
      if (opened.more === true) return { file, streamSessionId: this.key, appended, header, more: true };
    }
    return appended > 0 || header ? { file, streamSessionId: this.key, appended, header } : undefined;
  }

  /** Open a tail on the file, reading it from the start (the events the store holds are skipped). */
  private async openTail(file: string): Promise<LogChange> {
    const tail = new LogTail(
      (await openSessionLog(file, this.readOptions())).head,
      this.context.importOptions.maxLineBytes,
    );
    const change = await this.readTail(tail, this.signature as FileSignature);
    // A store holding more than the file (teamlog's own events after it): keep checking it whole.
    // A header alone has not decided how the lines decode (normalised or not): checked whole until a line says.
    if (!tail.failed && tail.keptEvents >= this.stored && !tail.headerOnly) this.tail = tail;
    return change ?? { file, streamSessionId: this.key, appended: 0, header: false };
  }

  private readOptions(): { readonly maxLineBytes?: number } {
    const { maxLineBytes } = this.context.importOptions;
    return maxLineBytes === undefined ? {} : { maxLineBytes };
  }

  private async readTail(tail: LogTail, signature: FileSignature): Promise<LogChange | undefined> {
    const file = tail.file;
    let appended = 0;
    const now = this.context.now ?? (() => performance.now());
    const sliceMs = this.context.sliceMs ?? defaultSliceMs;
    const started = now();
    this.unfinished = false;
    try {
      const read = await tail.read(
        async (events) => {
          appended += await this.append(events, tail);
        },
        () => now() - started >= sliceMs,
      );
      this.unfinished = read.more;
    } catch (error) {
      this.tail = undefined;
      // Another writer appended to the session: check the file against what it wrote (the tail reopens on the next growth).
      if (isStoreRace(error)) return this.importWhole(file, signature, false);
      if (isGone(error)) {
        this.signature = undefined;
        return undefined;
      }
      if (!(error instanceof SessionLogRejected)) throw error;
      this.signature = signature;
      return this.refused(file, rejectionOf(file, error), this.key);
    }
    this.signature = signature;
    this.known = Math.max(this.known, tail.keptEvents);
    const stopped = tail.stopped;
    const stop =
      stopped === null
        ? undefined
        : `${file}:line ${stopped.line}: ${stopped.detail}; the lines after it are not imported (a read of the whole file keeps the same ${stopped.keptEvents} events)`;
    const more = this.unfinished ? { more: true } : {};
    if (stop !== undefined && stop !== this.stopWarned) {
      this.stopWarned = stop;
      return { file, streamSessionId: this.key, appended, header: false, warning: stop, ...more };
    }
    return appended > 0 || this.unfinished
      ? { file, streamSessionId: this.key, appended, header: false, ...more }
      : undefined;
  }

  /** Append the events the store does not hold yet as one unit (staged in chunks, each expecting the revision the last leads to): all of them or none. */
  private async append(events: readonly SessionLogEvent[], tail: LogTail): Promise<number> {
    const fresh = events.filter(({ event }) => event.seq >= this.stored);
    if (fresh.length === 0) return 0;
    const key = this.key as SessionId;
    const encode = eventToAppendEncoder(key, tail.normalised);
    const unit = this.context.store.stageAppends({ callerHoldsEvents: true });
    const stager = new ChunkStager(unit, sessionStream(key), this.stored);
    const batchEvents = this.context.importOptions.batchEvents ?? defaultBatchEvents;
    try {
      for (let start = 0; start < fresh.length; start += batchEvents) {
        // The line's own data text, as a one-shot import stores it (docs/rules.md#stored-data-bytes).
        await stager.stage(
          fresh.slice(start, start + batchEvents).map(({ event, lineBytes }) => encode(event, lineBytes)),
        );
      }
      await unit.commit();
    } catch (error) {
      await unit.abort().catch(() => undefined);
      throw error;
    }
    this.stored += stager.staged;
    return stager.staged;
  }

  private warn(file: string, message: string, result?: FileImportResult): LogChange | undefined {
    if (this.warned === message) return undefined;
    this.warned = message;
    return { file, streamSessionId: result?.streamSessionId ?? this.key, appended: 0, header: false, warning: message };
  }

  /** The file as the header record names it: relative to the root, "/"-separated. */
  private recordedFile(file: string): string {
    return relative(this.context.rootDirectory, file).split(sep).join('/');
  }

  /** A look that could not import the file: its fate (file-fate.ts) decides between waiting, a warning and a revocation. */
  private async refused(
    file: string,
    rejection: ImportRejection,
    key: SessionId | undefined,
  ): Promise<LogChange | undefined> {
    const recorded = this.recordedFile(file);
    const holdsPart = key !== undefined && (await holdsUnrevokedPart(this.context.store, key, recorded));
    const fate = followedFileFate(rejection, holdsPart);
    switch (fate.kind) {
      case 'wait':
        // An empty file the writer is about to fill, a header not written whole yet, or a transcript beside the logs.
        return undefined;
      case 'refuse':
        return this.warn(file, rejection.message);
      case 'revoke': {
        const message = rejection.message.startsWith(file)
          ? `${recorded}${rejection.message.slice(file.length)}`
          : rejection.message;
        await revokeImport(this.context.store, key as SessionId, recorded, fate.reason, { ...rejection, message });
        this.warned = rejection.message;
        return {
          file,
          streamSessionId: key,
          appended: 1,
          header: false,
          warning: `${rejection.message}; the session imported from it so far is revoked (teamlog/import/revoked), as a replay of the file would reject it`,
        };
      }
      default: {
        const unreachable: never = fate;
        return unreachable;
      }
    }
  }
}
