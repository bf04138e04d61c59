import * as t from 'io-ts';
import { ContentBlock } from './content-block';
import { MessageId } from './ids';
import { MessageSource } from './message-source';
import { openObject } from './strict-object';

/** `user/message` data and inbox items: `{id, role:"user", content, source}`. */
export const UserMessage = openObject(
  { id: MessageId, role: t.literal('user'), content: t.readonlyArray(ContentBlock), source: MessageSource },
  {},
  'UserMessage',
);
export type UserMessage = t.TypeOf<typeof UserMessage>;
