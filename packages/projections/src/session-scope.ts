import { type MessageSource, type SessionId, scopeId } from '@teamlog/events';

/*
 * Sessions imported from a normalised snapshot fixture have scoped ids (`{{session:1}}@<scope>`),
 * and every placeholder id read from their events must be resolved in the same scope. The scope is
 * part of the session id itself, so a view can resolve ids before the header has arrived.
 */
const scopedSessionId = /^\{\{[a-z]+:\d+\}\}@(.+)$/;

/** Runs for every inbox event: most ids are not scoped, and those do not need the pattern. */
export const scopeOfSessionId = (id: SessionId): string | undefined =>
  id.startsWith('{{') ? scopedSessionId.exec(id)?.[1] : undefined;

/** The id fields a message source may carry; each is resolved in the session's scope. */
const sourceIdFields = ['teamId', 'messageId', 'senderId', 'senderSessionId'] as const;

/** The same source with its ids resolved in the scope: only id values change, so its kind and shape stay. */
export const scopeSource = <S extends MessageSource>(source: S, scope: string | undefined): S => {
  if (scope === undefined) return source;
  const scoped: Record<string, unknown> = { ...source };
  for (const field of sourceIdFields) {
    const value = scoped[field];
    if (typeof value === 'string') scoped[field] = scopeId(value, scope);
  }
  return scoped as S;
};
