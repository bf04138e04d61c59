import { isLeft } from 'fp-ts/Either';
import { ContentBlock, JsonValue, compileValidator, decodeWith } from '@teamlog/events';
import { invalidSendRequest } from './team-log-errors';

/**
 * What a session passes to `send`. There is no sender field: the sender is always the session
 * whose handle sends (a `sender` key is refused, not ignored).
 */
export interface SendRequest {
  /** A member name, a session id, or "lead". */
  readonly target: string;
  /** Text, or content blocks passed on unchanged after the `Team message from <name>:` heading. */
  readonly message: string | readonly ContentBlock[];
  /** Aborting before the acceptance is appended writes nothing and rejects with SendAborted. */
  readonly signal?: AbortSignal;
}

export interface ParsedSendRequest {
  readonly target: string;
  readonly content: readonly ContentBlock[];
  readonly signal?: AbortSignal;
}

/** 1 MiB of JSON content per message: a Team message is a note, not a file transfer. */
export const maxMessageBytes = 1024 * 1024;

const allowedKeys: ReadonlySet<string> = new Set(['target', 'message', 'signal']);
const isContentBlock = compileValidator(ContentBlock);
const decodeBlock = decodeWith(ContentBlock);

/** The bytes of a text message's content JSON, `[{"type":"text","text":""}]`, besides its text's own. */
const textBlockJsonBytes = 27;
/** JSON writes a UTF-16 unit in at most 6 bytes (`\uXXXX`): a text this short is under the limit uncounted. */
const surelyUnderLimit = (text: string): boolean => text.length * 6 + textBlockJsonBytes <= maxMessageBytes;

const parseContent = (message: unknown): ContentBlock[] => {
  if (typeof message === 'string') {
    if (message.length === 0) throw invalidSendRequest('message', 'must not be empty');
    return [{ type: 'text', text: message }];
  }
  if (!Array.isArray(message)) throw invalidSendRequest('message', 'must be a string or an array of content blocks');
  if (message.length === 0) throw invalidSendRequest('message', 'must hold at least one content block');
  return message.map((block: unknown, index) => {
    // The compiled check gives the codec's verdict (and the codec passes a block on unchanged);
    // only a refused block is decoded, to say where it is wrong.
    if (isContentBlock(block)) {
      if (!JsonValue.is(block)) throw invalidSendRequest(`message[${index}]`, 'is not plain JSON');
      return block;
    }
    const decoded = decodeBlock(block);
    if (isLeft(decoded))
      throw invalidSendRequest(
        `message[${index}]${decoded.left.path === '(root)' ? '' : `.${decoded.left.path}`}`,
        decoded.left.detail,
      );
    if (!JsonValue.is(block)) throw invalidSendRequest(`message[${index}]`, 'is not plain JSON');
    return decoded.right;
  });
};

/** No `signal` key at all when there is none (a present key holding undefined is not the same request). */
const parsed = (
  target: string,
  content: readonly ContentBlock[],
  signal: AbortSignal | undefined,
): ParsedSendRequest => (signal === undefined ? { target, content } : { target, content, signal });

/** The first own enumerable key that is not a send field (what `Object.keys` lists), without building the list. */
const extraKey = (fields: Record<string, unknown>): string | undefined => {
  for (const key in fields) if (Object.hasOwn(fields, key) && !allowedKeys.has(key)) return key;
  return undefined;
};

export const parseSendRequest = (request: unknown): ParsedSendRequest => {
  if (typeof request !== 'object' || request === null)
    throw invalidSendRequest('(root)', 'must be an object { target, message, signal? }');
  const fields = request as Record<string, unknown>;
  const extra = extraKey(fields);
  if (extra !== undefined) {
    throw invalidSendRequest(
      extra,
      'is not a send field (the sender is always the sending session; only target, message and signal are accepted)',
    );
  }
  const { target, message, signal } = fields;
  if (typeof target !== 'string' || target.length === 0)
    throw invalidSendRequest('target', 'must be a non-empty string');
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw invalidSendRequest('signal', 'must be an AbortSignal');
  const content = parseContent(message);
  if (typeof message === 'string' && surelyUnderLimit(message)) return parsed(target, content, signal);
  const bytes = Buffer.byteLength(JSON.stringify(content), 'utf8');
  if (bytes > maxMessageBytes)
    throw invalidSendRequest('message', `is ${bytes} bytes of JSON; the limit is ${maxMessageBytes}`);
  return parsed(target, content, signal);
};
