// The SDK's CommonJS build is reached through its exports map; see the `paths` note in tsconfig.json.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  type Tool,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { handleToolCall } from './handle-tool-call';
import { packageVersion } from './package-version';
import type { InboxWatch } from './inbox-watch';
import { inboxUri, readTeamResource, teamResources } from './team-resources';
import { isToolError } from './tool-errors';
import { type ToolDefinition, toolDefinitions } from './tool-definitions';
import type { ToolResult } from './tool-result';
import type { ToolSession } from './tool-session';

export interface TeamMcpServerOptions {
  readonly session: ToolSession;
  /** Enables subscriptions to the inbox resource: the client is told when the inbox accepts a message. */
  readonly watchInbox?: InboxWatch;
  /** Reported to the client as the server's version (default: this package's). */
  readonly version?: string;
}

/** The MCP server of one session: its toolset as tools, its read-only views as resources. */
export interface TeamMcpServer {
  readonly server: Server;
  connect(transport: Transport): Promise<void>;
  /** Answers the requests already running, then closes the connection and stops the inbox watch. */
  close(): Promise<void>;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const mcpTool = (definition: ToolDefinition): Tool => ({
  name: definition.name,
  description: definition.description,
  inputSchema: { ...definition.inputSchema, type: 'object' },
  outputSchema: { ...definition.outputSchema, type: 'object' },
});

// A refusal carries no structuredContent: the declared outputSchema describes a success, and
// clients check structuredContent against it; the sentence is in the text.
const callToolResult = (result: ToolResult): CallToolResult =>
  result.isError
    ? { content: [{ type: 'text', text: result.text }], isError: true }
    : { content: [{ type: 'text', text: result.text }], structuredContent: result.structuredContent };

const instructions = ({ handle }: ToolSession): string =>
  `You are "${handle.name}", ${handle.role === 'lead' ? 'the Lead' : 'a member'} of a teamlog team (session ${handle.sessionId}). ` +
  'Teammates reach you through your inbox: read it with read_inbox or the inbox resource (subscribe to hear when it grows). ' +
  'send_message reaches a teammate by name; every message is recorded as sent by you.';

const unavailable = (error: unknown): never => {
  throw isToolError(error, 'ResourceUnavailable') ? new McpError(ErrorCode.InvalidParams, error.message) : error;
};

export const createTeamMcpServer = ({ session, watchInbox, version }: TeamMcpServerOptions): TeamMcpServer => {
  const server = new Server(
    { name: 'teamlog', version: version ?? packageVersion() },
    {
      capabilities: { tools: {}, resources: { subscribe: watchInbox !== undefined } },
      instructions: instructions(session),
    },
  );
  const inbox = inboxUri(session.handle.sessionId);
  let stopWatch: (() => Promise<void>) | undefined;
  const running = new Set<Promise<unknown>>();
  // A client may close its side right after a call (stdin ends): the call still gets its answer.
  const tracked = <A>(work: Promise<A>): Promise<A> => {
    running.add(work);
    const forget = () => running.delete(work);
    work.then(forget, forget);
    return work;
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolDefinitions(session.handle.role).map(mcpTool),
  }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) =>
    tracked(handleToolCall(session, { name: params.name, arguments: params.arguments }).then(callToolResult)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: teamResources(session).map(({ uri, name, description }) => ({
      uri,
      name,
      description,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) =>
    tracked(readTeamResource(session, params.uri).catch(unavailable)).then((content) => ({
      contents: [{ uri: params.uri, mimeType: 'application/json', text: JSON.stringify(content, null, 2) }],
    })),
  );
  server.setRequestHandler(SubscribeRequestSchema, ({ params }) => {
    if (watchInbox === undefined || params.uri !== inbox)
      throw new McpError(ErrorCode.InvalidParams, `only ${inbox} sends updates`);
    // A notification to a client that has gone away is dropped: the next read shows the inbox anyway.
    stopWatch ??= watchInbox(() => void server.sendResourceUpdated({ uri: inbox }).catch(() => undefined));
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async ({ params }) => {
    if (params.uri === inbox && stopWatch !== undefined) {
      const stop = stopWatch;
      stopWatch = undefined;
      await stop();
    }
    return {};
  });

  return {
    server,
    connect: (transport) => server.connect(transport),
    close: async () => {
      // The SDK starts a handler, and writes its response, a few microtasks after the frame or the
      // result: a turn of the event loop before and after the wait lets both happen.
      await nextTurn();
      while (running.size > 0) await Promise.allSettled([...running]);
      await nextTurn();
      await server.close();
      await stopWatch?.();
      stopWatch = undefined;
    },
  };
};
