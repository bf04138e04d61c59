import * as t from 'io-ts';
import { ContentBlock } from './content-block';
import { MessageId, SessionId, TeamId } from './ids';
import { InboxList } from './inbox-spliced';
import { TeamRelaySource } from './message-source';
import { NonNegativeInteger } from './numbers';
import { strictObject } from './strict-object';

/* teamlog's own events. Export writes them with `ignorable: true` so the harness's readers skip them (docs/rules.md#teamlog-events-ignorable). */

/** A Team message as the target's inbox holds it: the true sender is in `source`. */
export const RelayedMessage = strictObject(
  { id: MessageId, role: t.literal('user'), content: t.readonlyArray(ContentBlock), source: TeamRelaySource },
  {},
  'RelayedMessage',
);
export type RelayedMessage = t.TypeOf<typeof RelayedMessage>;

export const InboxAccepted = strictObject(
  { teamId: TeamId, list: InboxList, message: RelayedMessage },
  {},
  'InboxAccepted',
);
export type InboxAccepted = t.TypeOf<typeof InboxAccepted>;

export const InboxClaimed = strictObject(
  { list: InboxList, messageIds: t.readonlyArray(MessageId), turn: NonNegativeInteger },
  { step: NonNegativeInteger },
  'InboxClaimed',
);
export type InboxClaimed = t.TypeOf<typeof InboxClaimed>;

export const InboxCanceled = strictObject(
  { list: InboxList, messageIds: t.readonlyArray(MessageId), reason: t.string },
  {},
  'InboxCanceled',
);
export type InboxCanceled = t.TypeOf<typeof InboxCanceled>;

export const SessionRole = t.keyof({ lead: null, member: null }, 'SessionRole');
export type SessionRole = t.TypeOf<typeof SessionRole>;

export const SessionCreated = strictObject(
  { teamId: TeamId, role: SessionRole, name: t.string },
  // teamName: the team's readable name, on the Lead's own created event (given, or its working directory's).
  { parentSessionId: SessionId, teamName: t.string },
  'SessionCreated',
);
export type SessionCreated = t.TypeOf<typeof SessionCreated>;

export const SessionStarted = strictObject({}, {}, 'SessionStarted');
export const SessionResident = strictObject({}, {}, 'SessionResident');
export const SessionEvicted = strictObject({}, {}, 'SessionEvicted');
export const SessionResumed = strictObject({ mode: t.literal('cold') }, {}, 'SessionResumed');

export const CloseReason = t.keyof({ killed: null, cancelled: null, lost: null, failed: null }, 'CloseReason');
export type CloseReason = t.TypeOf<typeof CloseReason>;
export const SessionClosed = strictObject({ reason: CloseReason }, { detail: t.string }, 'SessionClosed');
export type SessionClosed = t.TypeOf<typeof SessionClosed>;

/** Why a followed file was found rejected whole after some of it was imported (the importer's rejection reasons about a file's own bytes). */
export const RevocationReason = t.keyof(
  {
    'not-a-session-log': null,
    'newer-format-version': null,
    'invalid-header': null,
    'damaged-history': null,
    'invalid-event': null,
    'corrupt-frame': null,
    'over-limit': null,
  },
  'RevocationReason',
);
export type RevocationReason = t.TypeOf<typeof RevocationReason>;

/**
 * A follower learned too late that the file it imported this session from is rejected whole
 * (docs/rules.md#import-revoked): the views treat the session as a one-shot replay treats a
 * rejected file. Nothing stored before it is deleted.
 */
export const ImportRevoked = strictObject(
  { file: t.string, reason: RevocationReason, message: t.string },
  { line: NonNegativeInteger, path: t.string },
  'ImportRevoked',
);
export type ImportRevoked = t.TypeOf<typeof ImportRevoked>;

/**
 * A follower found a later generation of the session's log that renumbered its seqs (docs/rules.md#import-superseded):
 * the events before this record (imported from `file`) are superseded, and the stream goes on
 * with the events of `by`, seq 0 at the revision after this record. The views fold the session
 * from here as a one-shot replay of `by` would; nothing stored before it is deleted.
 */
export const ImportSuperseded = strictObject(
  { file: t.string, by: t.string, formatVersion: NonNegativeInteger },
  {},
  'ImportSuperseded',
);
export type ImportSuperseded = t.TypeOf<typeof ImportSuperseded>;

/**
 * A follower set a file aside: it is over a reader's limit, or it cost more than the follower's
 * bound to be refused (docs/rules.md#follow-set-aside). Kept in the stream of its file name with
 * what identifies this content (inode, size, mtime), so a restarted follower does not read it
 * again until it changes.
 */
export const ImportSetAside = strictObject(
  { file: t.string, ino: t.number, size: NonNegativeInteger, mtimeMs: t.number, reason: t.string, message: t.string },
  {},
  'ImportSetAside',
);
export type ImportSetAside = t.TypeOf<typeof ImportSetAside>;
