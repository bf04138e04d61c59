/**
 * What each audit finding code means, in one sentence, as docs/projections.md's table says. A code
 * without an entry (one added later) still shows, with a pointer to that table.
 */
const explanations: Readonly<Record<string, string>> = {
  'header-sender-mismatch': "The message's \"Team message … from <name>:\" header names someone else than its source's sender.",
  'header-message-id-mismatch': 'A team-message header names another message id than its source (or none).',
  'missing-sender-header': 'A Team message does not start with the sender header line.',
  'roster-name-mismatch': "The sender's name in the source or header differs from the sender session's roster name.",
  'sender-not-in-team': "The sender session is neither the Lead nor a member of the target's team.",
  'source-kind-outside-era': 'The source kind does not belong to the era of the log.',
  'team-record-outside-era': 'A Team record does not belong to the era of its Lead log.',
  'legacy-delivered-to-other-target': 'A mailbox message was delivered to (or sits in the inbox of) another session than its target.',
  'duplicate-acceptance': 'One message id was accepted twice into the same inbox.',
  'undecodable-event': 'An inbox event or a header record that the event catalog refuses.',
};

export const auditExplanation = (code: string): string => explanations[code] ?? `Audit finding "${code}" (docs/projections.md lists the codes).`;
