// The SDK's CommonJS build is reached through its exports map; see the `paths` note in tsconfig.json.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema, CallToolResult, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema,
  SubscribeRequestSchema, Tool, UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { handleToolCall } from './handle-tool-call';
import { InboxWatch } from './inbox-watch';
import { ResourceUnavailable, inboxUri, readTeamResource, teamResources } from './team-resources';
import { ToolDefinition, toolDefinitions } from './tool-definitions';
import { ToolResult } from './tool-result';
import { ToolSession } from './tool-session';

export interface TeamMcpServerOptions {
  readonly session: ToolSession;
  /** Enables subscriptions to the inbox resource: the client is told when the inbox accepts a message. */
  readonly watchInbox?: InboxWatch;
  /** Reported to the client as the server's version. */
  readonly version: string;
}

/** The MCP server of one session: its toolset as tools, its read-only views as resources. */
export interface TeamMcpServer {
  readonly server: Server;
  connect(transport: Transport): Promise<void>;
  /** Closes the connection and stops the inbox watch. */
  close(): Promise<void>;
}

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
  `You are "${handle.name}", the ${handle.role === 'lead' ? 'Lead' : 'a member'} of a teamlog team (session ${handle.sessionId}). ` +
  'Teammates reach you through your inbox: read it with read_inbox or the inbox resource (subscribe to hear when it grows). ' +
  'send_message reaches a teammate by name; every message is recorded as sent by you.';

const unavailable = (error: unknown): never => {
  throw error instanceof ResourceUnavailable ? new McpError(ErrorCode.InvalidParams, error.message) : error;
};

export const createTeamMcpServer = ({ session, watchInbox, version }: TeamMcpServerOptions): TeamMcpServer => {
  const server = new Server(
    { name: 'teamlog', version },
    { capabilities: { tools: {}, resources: { subscribe: watchInbox !== undefined } }, instructions: instructions(session) },
  );
  const inbox = inboxUri(session.handle.sessionId);
  let stopWatch: (() => Promise<void>) | undefined;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolDefinitions(session.handle.role).map(mcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => callToolResult(await handleToolCall(session, { name: params.name, arguments: params.arguments })));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: teamResources(session).map(({ uri, name, description }) => ({ uri, name, description, mimeType: 'application/json' })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
    const content = await readTeamResource(session, params.uri).catch(unavailable);
    return { contents: [{ uri: params.uri, mimeType: 'application/json', text: JSON.stringify(content, null, 2) }] };
  });
  server.setRequestHandler(SubscribeRequestSchema, ({ params }) => {
    if (watchInbox === undefined || params.uri !== inbox) throw new McpError(ErrorCode.InvalidParams, `only ${inbox} sends updates`);
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
      await server.close();
      await stopWatch?.();
      stopWatch = undefined;
    },
  };
};
