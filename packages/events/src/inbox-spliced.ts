import * as t from 'io-ts';
import { NonNegativeInteger } from './numbers';
import { openObject } from './strict-object';
import { UserMessage } from './user-message';

export const InboxList = t.keyof({ 'next-turn': null, 'next-step': null }, 'InboxList');
export type InboxList = t.TypeOf<typeof InboxList>;

/** `agent/inbox/spliced`: `list[target].splice(start, removedCount ?? 0, ...inserted)`. */
export const InboxSpliced = openObject(
  { target: InboxList, start: NonNegativeInteger, inserted: t.readonlyArray(UserMessage) },
  { removedCount: NonNegativeInteger, outcome: t.literal('canceled') },
  'InboxSpliced',
);
export type InboxSpliced = t.TypeOf<typeof InboxSpliced>;
