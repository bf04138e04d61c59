import type { DecodeError } from '@teamlog/events';

export type RejectionReason =
  /** The first line is not a session header (another JSONL file, or not JSON at all). */
  | 'not-a-session-log'
  /** A generation this reader does not know yet: not corrupt, it needs a newer reader. */
  | 'newer-format-version'
  | 'invalid-header'
  /** Damage before a later `turn/end`: inside committed history (docs/rules.md#recovery-damaged-tail). */
  | 'damaged-history'
  /** A catalog event whose payload fails its strict codec. */
  | 'invalid-event'
  /** A complete zstd frame fails its structure, decompression or checksum check. */
  | 'corrupt-frame'
  /** A line longer, or nested deeper, than the reader's limits: input validation, never a partial import. */
  | 'over-limit'
  | 'unreadable'
  /** The store already holds a different history for this session. */
  | 'prefix-mismatch'
  /** Another writer kept changing the session stream during the import. */
  | 'store-conflict'
  /** The store holds this session but keeps no events to compare with (the heads-only store of a one-shot replay). */
  | 'prefix-not-kept';

/** Which rejection: most are named by their reason alone; these few are told apart by name where they are caught. */
export type SessionLogRejectionName =
  | 'SessionLogRejected'
  | 'NotASessionLog'
  | 'NewerFormatVersion'
  | 'FileChangedDuringImport';

export interface RejectionDetails {
  readonly name?: SessionLogRejectionName;
  readonly line?: number;
  /** Field path inside the line, when the problem is a field. */
  readonly path?: string;
  readonly cause?: unknown;
}

const render = (file: string, detail: string, details: RejectionDetails): string =>
  `${file}${details.line === undefined ? '' : `:line ${details.line}`}: ${details.path === undefined ? '' : `${details.path}: `}${detail}`;

/** A session log file that cannot be read or imported as a whole; says file, line and field path. */
export class SessionLogRejected extends Error {
  override readonly name: SessionLogRejectionName;
  readonly line: number | undefined;
  readonly path: string | undefined;

  constructor(
    readonly reason: RejectionReason,
    readonly file: string,
    readonly detail: string,
    details: RejectionDetails = {},
  ) {
    super(render(file, detail, details), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = details.name ?? 'SessionLogRejected';
    this.line = details.line;
    this.path = details.path;
  }

  /** A DecodeError found at a line of this file. */
  static fromDecodeError(reason: RejectionReason, file: string, line: number, error: DecodeError): SessionLogRejected {
    return new SessionLogRejected(reason, file, error.detail, {
      line,
      path: error.path,
      cause: error.at({ file, line }),
    });
  }
}

export const notASessionLog = (file: string, detail: string): SessionLogRejected =>
  new SessionLogRejected('not-a-session-log', file, `not a session log: ${detail}`, {
    line: 1,
    name: 'NotASessionLog',
  });

/** Named after the events package's error (its `cause`), which docs/rules.md#header-version-first calls "needs a newer reader". */
export const needsNewerReader = (file: string, cause: DecodeError): SessionLogRejected =>
  new SessionLogRejected('newer-format-version', file, cause.detail, {
    line: 1,
    path: 'version',
    cause,
    name: 'NewerFormatVersion',
  });
