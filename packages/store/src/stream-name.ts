import type { SessionId } from '@teamlog/events';

export interface StreamNameBrand {
  readonly StreamName: unique symbol;
}
export type StreamName = string & StreamNameBrand;

export const streamName = (name: string): StreamName => {
  if (name.length === 0) throw new TypeError('a stream name must not be empty');
  if (name.startsWith('$')) throw new TypeError(`stream names starting with "$" are reserved for the store: ${name}`);
  return name as StreamName;
};

/** Each session is one stream; its revision is the session log's seq. */
export const sessionStream = (id: SessionId): StreamName => streamName(`session-${id}`);
/** The session header lives beside the session so the session stream's revisions stay its seqs. */
export const sessionHeaderStream = (id: SessionId): StreamName => streamName(`sessionheader-${id}`);

export const sessionIdOfStream = (name: StreamName): SessionId | undefined =>
  name.startsWith('session-') ? (name.slice('session-'.length) as SessionId) : undefined;
export const sessionIdOfHeaderStream = (name: StreamName): SessionId | undefined =>
  name.startsWith('sessionheader-') ? (name.slice('sessionheader-'.length) as SessionId) : undefined;
