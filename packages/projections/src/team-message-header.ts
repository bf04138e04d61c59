import type { ContentBlock } from '@teamlog/events';

/** The first text block of a Team message: `Team message [<id>] from <senderName>:`. */
export interface TeamMessageHeader {
  readonly messageId?: string;
  readonly senderName: string;
}

const headerPattern = /^Team message(?: (\S+))? from (.*):$/s;

/** The header a Team message starts with, or undefined when its first block is not one. */
export const parseTeamMessageHeader = (content: readonly ContentBlock[]): TeamMessageHeader | undefined => {
  const first = content[0];
  if (first === undefined || first.type !== 'text' || typeof first.text !== 'string') return undefined;
  const match = headerPattern.exec(first.text);
  if (match === null || match[2] === undefined) return undefined;
  return match[1] === undefined ? { senderName: match[2] } : { messageId: match[1], senderName: match[2] };
};
