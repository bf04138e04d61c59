/*
 * The stored JSON text of an acceptance's data, written by hand for the one shape every send writes
 * (the inbox decider's `teamlog/inbox/accepted`: team id, list, and a relayed message of text
 * blocks), so the store does not run `JSON.stringify` over it (on Node 20 that walk cost about twice
 * this). The text is exactly `JSON.stringify(data)`'s (the same key order, the same escapes), so the
 * stored bytes and their chain digest do not depend on which of the two wrote them
 * (docs/rules.md#stored-data-bytes); any other shape is left to `JSON.stringify`. A text built here
 * also proves the data plain JSON: every value in it is a string, in plain objects and arrays.
 */

import { isPlainJsonString as isPlain, jsonString as quoted } from './json-string';

/** A plain object (what JSON.stringify writes key by key, with no `toJSON` of its prototype) with exactly these own keys, in this order. */
const hasKeys = (value: unknown, keys: readonly string[]): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  let index = 0;
  for (const key in value) {
    if (key !== keys[index]) return false;
    index += 1;
  }
  return index === keys.length;
};

const dataKeys = ['teamId', 'list', 'message'];
const messageKeys = ['id', 'role', 'content', 'source'];
const sourceKeys = ['kind', 'form', 'senderSessionId', 'senderName'];
const textBlockKeys = ['type', 'text'];

/**
 * Texts of frozen values, kept as long as the value lives: a sender's heading block and source are
 * one frozen object shared by all its messages (relayed-message.ts), so their text is written once,
 * not per send. Only frozen values: a value that can still change cannot keep its text.
 */
const frozenTexts = new WeakMap<object, string>();

const keptText = <T extends object>(value: T, write: (value: T) => string | undefined): string | undefined => {
  const kept = frozenTexts.get(value);
  if (kept !== undefined) return kept;
  const text = write(value);
  if (text !== undefined && Object.isFrozen(value)) frozenTexts.set(value, text);
  return text;
};

/*
 * A plain text's quotes are written into the literal pieces around it: a text joined by `+` is a
 * chain of pieces (flattened once, by the digest's length count), and each `quoted` text would add
 * two links and a copy of its own.
 */
const writeBlock = (block: object): string | undefined =>
  hasKeys(block, textBlockKeys) && block.type === 'text' && typeof block.text === 'string'
    ? isPlain(block.text)
      ? `{"type":"text","text":"${block.text}"}`
      : `{"type":"text","text":${quoted(block.text)}}`
    : undefined;

/** A text block as `{"type":"text","text":…}`; undefined for any other block. */
const blockText = (block: unknown): string | undefined =>
  typeof block === 'object' && block !== null ? keptText(block, writeBlock) : undefined;

const contentText = (content: unknown): string | undefined => {
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype) return undefined;
  if (content.length === 1) {
    const block = blockText(content[0]);
    return block === undefined ? undefined : `[${block}]`;
  }
  let text = '[';
  for (let index = 0; index < content.length; index += 1) {
    const block = blockText(content[index]);
    if (block === undefined) return undefined;
    text += index === 0 ? block : `,${block}`;
  }
  return `${text}]`;
};

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * `JSON.stringify(data)` of an acceptance whose message is a Team relay of text blocks, built without
 * walking the value generically; undefined for any other shape (the store then encodes `data` itself).
 */
export const acceptedDataText = (data: unknown): string | undefined => {
  if (!hasKeys(data, dataKeys) || !isText(data.teamId) || !isText(data.list)) return undefined;
  const message = data.message;
  if (!hasKeys(message, messageKeys) || !isText(message.id) || message.role !== 'user') return undefined;
  const source =
    typeof message.source === 'object' && message.source !== null ? keptText(message.source, writeSource) : undefined;
  if (source === undefined) return undefined;
  const content = contentText(message.content);
  if (content === undefined) return undefined;
  const { teamId } = data;
  const { id } = message;
  return isPlain(teamId) && isPlain(id)
    ? `{"teamId":"${teamId}","list":${listText(data.list)},"message":{"id":"${id}","role":"user","content":${content},"source":${source}}}`
    : `{"teamId":${quoted(teamId)},"list":${listText(data.list)},"message":{"id":${quoted(id)},"role":"user","content":${content},"source":${source}}}`;
};

const writeSource = (source: object): string | undefined =>
  hasKeys(source, sourceKeys) &&
  source.kind === 'team-relay' &&
  source.form === 'relay' &&
  isText(source.senderSessionId) &&
  isText(source.senderName)
    ? `{"kind":"team-relay","form":"relay","senderSessionId":${quoted(source.senderSessionId)},"senderName":${quoted(source.senderName)}}`
    : undefined;

/** The two lists' texts are constants. */
const listText = (list: string): string =>
  list === 'next-turn' ? '"next-turn"' : list === 'next-step' ? '"next-step"' : quoted(list);
