import type { ContentBlock, MessageId, RelayedMessage, SessionId, TeamRelaySource } from '@teamlog/events';

/** Who sent a Team message: always the sending session itself, never a caller's claim. */
export interface TeamSender {
  readonly sessionId: SessionId;
  readonly name: string;
}

export const teamMessageHeading = (senderName: string): string => `Team message from ${senderName}:`;

/** What every message of one sender holds alike: its heading block and its source. */
interface SenderParts {
  readonly name: string;
  readonly heading: ContentBlock;
  readonly source: TeamRelaySource;
}

/**
 * The parts made once per sender and shared by its messages (they are immutable values): an
 * unclaimed inbox keeps every accepted message, so a copy of each per message stayed in memory
 * until the target claimed it. Bounded: past `maxSenders` senders the table starts again.
 */
const senderParts = new Map<SessionId, SenderParts>();
const maxSenders = 1024;

const partsOf = (sender: TeamSender): SenderParts => {
  const known = senderParts.get(sender.sessionId);
  if (known !== undefined && known.name === sender.name) return known;
  if (senderParts.size >= maxSenders) senderParts.clear();
  const parts: SenderParts = {
    name: sender.name,
    // Frozen: one value is shared by many messages, so a change through one would show in all.
    heading: Object.freeze({ type: 'text', text: teamMessageHeading(sender.name) }),
    source: Object.freeze({
      kind: 'team-relay',
      form: 'relay',
      senderSessionId: sender.sessionId,
      senderName: sender.name,
    }),
  };
  senderParts.set(sender.sessionId, parts);
  return parts;
};

/** The target's copy of a Team message: a heading naming the sender, then the sender's blocks unchanged. */
export const relayedMessage = (id: MessageId, sender: TeamSender, content: readonly ContentBlock[]): RelayedMessage => {
  const { heading, source } = partsOf(sender);
  // concat sizes the array to its blocks; a spread into a literal grows it and keeps the spare room.
  return { id, role: 'user', content: [heading].concat(content), source };
};
