import type { UserMessage } from '@teamlog/events';

/** The sender's name of a Team message (team-relay source), if it is one. */
export const senderNameOf = (message: UserMessage): string | undefined =>
  message.source.kind === 'team-relay' && 'senderName' in message.source
    ? String(message.source.senderName)
    : undefined;

/** The sender's text, without the `Team message from <name>:` heading. */
export const bodyOf = (message: UserMessage): string =>
  message.content
    .slice(senderNameOf(message) === undefined ? 0 : 1)
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');
