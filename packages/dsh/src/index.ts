/**
 * @teamlog/dsh: read, import and export historical session logs of the reference agent harness
 * (every generation, raw and zstd). See docs/historical-logs.md.
 */
export { discoverSessionLogs, logsInDirectory, type DiscoveredLog } from './session-file-discovery';
export {
  parseSessionFileName,
  generationOfFileName,
  sessionLogFileName,
  type Compression,
  type SessionFileName,
} from './session-file-name';
export {
  SessionLogReader,
  openSessionLog,
  readSessionLog,
  scanSessionLog,
  type ReadSessionLogOptions,
  type SessionLogEvent,
  type SessionLogHead,
  type SessionLogSummary,
} from './session-log-reader';
export type { LogicalEvent } from './logical-event';
export type { InvalidTeamRecord } from './event-line-processor';
export type { Recovery, RecoveryReason } from './recovery-scanner';
export {
  SessionLogRejected,
  needsNewerReader,
  notASessionLog,
  type RejectionReason,
  type SessionLogRejectionName,
} from './session-log-errors';
export {
  type CorruptZstdFrame,
  type ZstdFault,
  type ZstdOverLimit,
  ZstdError,
  corruptZstdFrame,
  isZstdError,
} from './zstd-errors';
export {
  importSessionLog,
  scopeOfFile,
  type FileImportOptions,
  type FileImportResult,
  type ImportOptions,
  type ImportRejection,
} from './session-importer';
export { importSessionLogs, type ImportLogsOptions, type ImportReport } from './import-session-logs';
export {
  exportSession,
  type ExportOptions,
  type ExportResult,
} from './session-exporter';
export {
  ExportError,
  type ExportFault,
  exportTargetRefused,
  isExportError,
  sessionNotExportable,
} from './export-errors';
export { defaultMaxJsonDepth } from './json-depth';
export { sessionEventId, sessionHeaderEventId } from './event-ids';
export { expandSeqRanges, compressSeqRanges } from './seq-range-codec';
export { LegacyV0UserMessage } from './legacy-v0-shapes';
export {
  followSessionLogs,
  defaultPollMs,
  type FollowBatch,
  type FollowMode,
  type FollowOptions,
  type SessionLogFollower,
} from './session-log-follower';
export type { LogChange, FollowContext } from './followed-log';
export { FollowedTree, FollowedFile } from './followed-tree';
export { LogTail, type TailRead } from './log-tail';
export { encodeZstdFrame, initZstdEncoder } from './zstd-frame-encoder';
