// The SDK's CommonJS build is reached through its exports map; see the `paths` note in tsconfig.json.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type RequestId,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/*
 * What one newline-delimited frame of the MCP stdio protocol is: a message to hand to the server,
 * or the JSON-RPC error to answer instead (docs/tools.md, "Frames and limits"). Pure: the
 * transport (stdio-frame-transport.ts) cuts the stream into frames and writes the answers.
 */

/** The most bytes of one frame (10 MiB, as the SDK's own stdio transport): a longer one is skipped and answered with an error. */
export const defaultMaxFrameBytes = 10 * 1024 * 1024;

export interface JsonRpcErrorAnswer {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly error: { readonly code: number; readonly message: string };
}

export type FrameOutcome =
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  /** Blank lines, and refused notifications (a notification gets no answer). */
  | { readonly kind: 'nothing' }
  | { readonly kind: 'answer'; readonly answer: JsonRpcErrorAnswer };

const answer = (id: RequestId | null, code: number, message: string): FrameOutcome => ({
  kind: 'answer',
  answer: { jsonrpc: '2.0', id, error: { code, message } },
});

/** The params of every method the teamlog server handles, checked here so a bad one gets -32602 and one sentence. */
/** What this module needs of a params schema: a check that names the first problem. */
interface ParamsSchema {
  readonly safeParse: (value: unknown) => {
    readonly success: boolean;
    readonly error?: {
      readonly issues: ReadonlyArray<{ readonly path: readonly PropertyKey[]; readonly message: string }>;
    };
  };
}

const asParamsSchema = (schema: ParamsSchema): ParamsSchema => schema;

/** The params of every method the teamlog server handles, checked here so a bad one gets -32602 and one sentence. */
const requestSchemas: ReadonlyMap<string, ParamsSchema> = new Map<string, ParamsSchema>([
  ['initialize', asParamsSchema(InitializeRequestSchema)],
  ['ping', asParamsSchema(PingRequestSchema)],
  ['tools/list', asParamsSchema(ListToolsRequestSchema)],
  ['tools/call', asParamsSchema(CallToolRequestSchema)],
  ['resources/list', asParamsSchema(ListResourcesRequestSchema)],
  ['resources/read', asParamsSchema(ReadResourceRequestSchema)],
  ['resources/subscribe', asParamsSchema(SubscribeRequestSchema)],
  ['resources/unsubscribe', asParamsSchema(UnsubscribeRequestSchema)],
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const requestIdOf = (value: unknown): RequestId | null => {
  if (!isRecord(value)) return null;
  const id = value.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
};

const pathText = (path: readonly PropertyKey[]): string =>
  path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');

/**
 * The path of the first `__proto__` key anywhere in a parsed frame: JSON.parse keeps it as an own
 * key, but the SDK's params schemas copy objects and drop it silently, so a tool's strict codec
 * would never see it; it is refused here instead (docs/tools.md).
 */
export const protoKeyPath = (value: unknown, path: readonly PropertyKey[] = []): readonly PropertyKey[] | undefined => {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = protoKeyPath(item, [...path, index]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return [...path, key];
    const found = protoKeyPath(value[key], [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
};

const firstSentence = (text: string): string => text.split('\n')[0]?.trim() ?? text;

/** Decide one frame (a line without its newline). */
export const decideFrame = (line: string): FrameOutcome => {
  if (line.trim() === '') return { kind: 'nothing' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return answer(
      null,
      ErrorCode.ParseError,
      `Parse error: the frame is not JSON (${firstSentence((error as Error).message)}).`,
    );
  }
  const id = requestIdOf(parsed);
  const isRequest = isRecord(parsed) && typeof parsed.method === 'string' && id !== null;
  const isNotification = isRecord(parsed) && typeof parsed.method === 'string' && !('id' in parsed);
  const proto = protoKeyPath(parsed);
  if (proto !== undefined) {
    if (isNotification) return { kind: 'nothing' };
    return answer(
      id,
      isRequest ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest,
      `Invalid params: ${pathText(proto)} is not a key any teamlog method accepts; nothing was done.`,
    );
  }
  const message = JSONRPCMessageSchema.safeParse(parsed);
  if (!message.success) {
    if (isNotification) return { kind: 'nothing' };
    return answer(
      id,
      ErrorCode.InvalidRequest,
      'Invalid request: the frame is not a JSON-RPC 2.0 request, notification or response.',
    );
  }
  const method = isRecord(parsed) && typeof parsed.method === 'string' ? parsed.method : undefined;
  const schema = method === undefined ? undefined : requestSchemas.get(method);
  if (schema !== undefined) {
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      if (!isRequest) return { kind: 'nothing' };
      const issue = checked.error?.issues[0];
      const where = issue === undefined ? 'params' : pathText(issue.path);
      return answer(
        id,
        ErrorCode.InvalidParams,
        `Invalid params of ${method}: ${where}: ${firstSentence(issue?.message ?? 'not accepted')}.`,
      );
    }
  }
  return { kind: 'message', message: message.data };
};

const headId = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const leadingId = /^\s*\{\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const trailingId = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/**
 * The id of a frame too long to parse, when its first or last bytes show it at the top level
 * (`{"jsonrpc":"2.0","id":7,...` or `...,"id":7}`, as clients write them), so the client's request
 * gets its answer instead of waiting for one; otherwise null, as JSON-RPC says for an unknown id.
 */
export const idOfTruncatedFrame = (head: string, tail: string): RequestId | null => {
  const found = headId.exec(head) ?? leadingId.exec(head) ?? trailingId.exec(tail);
  if (found === null || found[1] === undefined) return null;
  try {
    const id: unknown = JSON.parse(found[1]);
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
};

/** The answer to a frame longer than the limit (it was skipped unread). */
export const oversizedFrameAnswer = (maxFrameBytes: number, id: RequestId | null): JsonRpcErrorAnswer => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: ErrorCode.InvalidRequest,
    message: `Invalid request: the frame is longer than ${maxFrameBytes} bytes, the most teamlog reads as one message; it was skipped and nothing was done.`,
  },
});
