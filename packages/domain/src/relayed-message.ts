import type { ContentBlock, MessageId, RelayedMessage, SessionId } from '@teamlog/events';

/** Who sent a Team message: always the sending session itself, never a caller's claim. */
export interface TeamSender {
  readonly sessionId: SessionId;
  readonly name: string;
}

export const teamMessageHeading = (senderName: string): string => `Team message from ${senderName}:`;

/** The target's copy of a Team message: a heading naming the sender, then the sender's blocks unchanged. */
export const relayedMessage = (
  id: MessageId,
  sender: TeamSender,
  content: readonly ContentBlock[],
): RelayedMessage => ({
  id,
  role: 'user',
  content: [{ type: 'text', text: teamMessageHeading(sender.name) }, ...content],
  source: { kind: 'team-relay', form: 'relay', senderSessionId: sender.sessionId, senderName: sender.name },
});
