import type { AuditCode } from './attribution-audit';

/** One sentence per audit code: what the store holds that disagrees (docs/projections.md#audit has the rules). */
export const auditExplanations: Readonly<Record<AuditCode, string>> = {
  'header-sender-mismatch':
    'The message text names another sender in its "Team message from" line than its source does.',
  'header-message-id-mismatch':
    'A mailbox-era message names another message id in its header line than its source does.',
  'missing-sender-header':
    'A Team message lacks the "Team message from <sender>:" line every relayed message starts with.',
  'roster-name-mismatch': 'The sender name the message gives differs from the name the team roster gives that session.',
  'sender-not-in-team': 'The sender is neither the Lead nor a member of the team the message was accepted for.',
  'source-kind-outside-era':
    'The message source kind did not exist in the format generation or period of the log that holds it.',
  'team-record-outside-era': 'A Team record of a version the log format generation or period did not write.',
  'legacy-delivered-to-other-target':
    'A mailbox-era message was delivered to another session than the one it was queued for.',
  'duplicate-acceptance': 'The same message id was accepted twice into one inbox.',
  'undecodable-event': 'An event its catalog codec refuses, so the views could not use it.',
  'writer-missing':
    'An acceptance teamlog wrote carries no writer in its metadata, though teamlog always records the sending session there.',
  'writer-not-sender': "The writer recorded in the acceptance's metadata is not the sender its message names.",
  'sender-stream-missing': 'The named sender had no stream of its own in the store when the message was accepted.',
  'sender-closed': "The named sender's own stream had already closed the session when the message was accepted.",
  'sender-in-other-team': "The named sender's own stream places it in another team than the acceptance names.",
  'sender-not-in-roster':
    'The named sender was neither the Lead nor on the team roster at the position of the acceptance.',
  'revoked-session':
    'A follower found the file it imported this session from rejected whole, so the session is left out as a one-shot replay leaves out a rejected file.',
  'message-id-reused':
    'One message id was accepted into two sessions, though teamlog gives every accepted message a fresh id.',
};

/** The explanation of each code that occurs in the findings, in code order. */
export const explanationsOf = (
  findings: ReadonlyArray<{ readonly code: AuditCode }>,
): Partial<Record<AuditCode, string>> =>
  Object.fromEntries(
    [...new Set(findings.map((finding) => finding.code))].sort().map((code) => [code, auditExplanations[code]]),
  );
