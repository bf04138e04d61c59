import * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { ContentBlock, MessageSource, isPeerSource } from '@teamlog/events';

/** Early V0 `user/message` data: `{content, source}`, without the `id`/`role` wrapper (docs/rules.md#legacy-v0-user-message). */
const LegacyUserMessage = t.type(
  { content: t.readonlyArray(ContentBlock), source: MessageSource },
  'LegacyUserMessage',
);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isLegacyUserMessage = (type: string, data: unknown): boolean =>
  type === 'user/message' && isRecord(data) && !('id' in data) && !('role' in data);

/**
 * The current shape of an early V0 `user/message`, when it matters to the inbox: a peer message
 * gets the id the V0→V1 edge would give it (a `team-message` keeps its Team message id, others
 * `legacy-<seq>`). Other legacy user messages are prompts the views do not need: undefined.
 */
export const upgradeLegacyUserMessage = (data: unknown, seq: number): Record<string, unknown> | undefined => {
  const decoded = LegacyUserMessage.decode(data);
  if (!isRight(decoded) || !isPeerSource(decoded.right.source)) return undefined;
  const { source } = decoded.right;
  const id =
    source.kind === 'team-message' && typeof source.messageId === 'string' ? source.messageId : `legacy-${seq}`;
  return { id, role: 'user', content: decoded.right.content, source };
};
