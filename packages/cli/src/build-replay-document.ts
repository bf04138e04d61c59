import type { FileImportResult } from '@teamlog/dsh';
import type { ReplayView } from '@teamlog/projections';
import type { ReplayDocument, ReplayTotalsJson, SessionJson } from './replay-document';

export const isNotASessionLog = (result: FileImportResult): boolean => result.rejected?.reason === 'not-a-session-log';

/** One imported (or rejected) file as the document lists it. */
export const sessionJson = (result: FileImportResult): SessionJson => ({
  id: result.streamSessionId ?? null,
  file: result.file,
  formatVersion: result.formatVersion ?? null,
  events: result.events,
  recovery:
    result.recovery === null
      ? null
      : {
          reason: result.recovery.reason,
          keptEvents: result.recovery.keptEvents,
          line: result.recovery.line,
          detail: result.recovery.detail,
          droppedLines: result.recovery.droppedLines,
        },
  ...(result.rejected === undefined
    ? {}
    : {
        rejected: result.rejected.reason,
        rejection: {
          message: result.rejected.message,
          ...(result.rejected.line === undefined ? {} : { line: result.rejected.line }),
          ...(result.rejected.path === undefined ? {} : { path: result.rejected.path }),
        },
      }),
  ...(result.sessionId === undefined ? {} : { statedId: result.sessionId }),
  appended: result.appended,
  alreadyStored: result.alreadyStored,
  unknownTypes: result.unknownTypes,
  normalised: result.normalised,
  ...(result.scope === undefined ? {} : { scope: result.scope }),
});

export const replayTotals = (results: readonly FileImportResult[]): ReplayTotalsJson => {
  const rejected = results.filter((result) => result.rejected !== undefined);
  const notSessionLogs = rejected.filter(isNotASessionLog).length;
  return {
    files: results.length,
    imported: results.length - rejected.length,
    rejected: rejected.length - notSessionLogs,
    notSessionLogs,
    recovered: results.filter((result) => result.recovery !== null).length,
    appended: results.reduce((sum, result) => sum + result.appended, 0),
  };
};

export interface ReplayDocumentInput {
  readonly results: readonly FileImportResult[];
  readonly view: ReplayView;
  readonly store: string;
  readonly position: string | null;
  readonly asOf?: string;
}

/** The `teamlog replay --json` document: the importer's sessions beside the views. */
export const buildReplayDocument = ({ results, view, store, position, asOf }: ReplayDocumentInput): ReplayDocument => ({
  sessions: results.map(sessionJson),
  teams: view.teams,
  inbox: view.inbox,
  audit: view.audit,
  store,
  position,
  ...(asOf === undefined ? {} : { asOf }),
  totals: replayTotals(results),
});
