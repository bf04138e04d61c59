import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryEventStore } from '@teamlog/store';
import {
  type TeamMcpServer,
  type ToolSession,
  createTeamMcpServer,
  handleToolCall,
  inboxUri,
  rosterUri,
  storeInboxWatch,
  tasksUri,
  toolDefinitions,
} from '@teamlog/tools';
import { memberOf, toolTeam } from './tool-team';

/* The MCP server of one session, driven in process by the SDK's own Client. */

interface Connected {
  readonly client: Client;
  readonly server: TeamMcpServer;
  readonly updates: string[];
}

const connect = async (session: ToolSession, store?: InMemoryEventStore): Promise<Connected> => {
  const watchInbox =
    store === undefined
      ? undefined
      : storeInboxWatch(store, session.handle.sessionId, (error) => {
          throw error;
        });
  const server = createTeamMcpServer({
    session,
    version: '0.1.0',
    ...(watchInbox === undefined ? {} : { watchInbox }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-runtime', version: '1.0.0' });
  const updates: string[] = [];
  client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (notification) => void updates.push(notification.params.uri),
  );
  await client.connect(clientSide);
  return { client, server, updates };
};

const until = async (done: () => boolean): Promise<void> => {
  for (let tries = 0; tries < 200 && !done(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the Team MCP server', () => {
  it("given the Lead's and a member's servers, then each lists its role's toolset with the schemas generated from the codecs", async () => {
    const team = await toolTeam(['reviewer']);
    const lead = await connect(team.lead);
    const member = await connect(memberOf(team, 'reviewer'));
    const { tools } = await lead.client.listTools();
    expect(
      tools.map(({ name, description, inputSchema, outputSchema }) => ({
        name,
        description,
        inputSchema,
        outputSchema,
      })),
    ).toEqual(toolDefinitions('lead'));
    expect((await member.client.listTools()).tools.map((tool) => tool.name)).not.toContain('spawn_member');
    expect(lead.client.getInstructions()).toContain(
      `You are "lead", the Lead of a teamlog team (session ${team.lead.handle.sessionId})`,
    );
    await Promise.all([lead.server.close(), member.server.close()]);
  });

  it('given a send_message call, then the result carries the accepted id as structured content the Client validated against the outputSchema', async () => {
    const team = await toolTeam(['reviewer']);
    const { client, server } = await connect(team.lead);
    const result = await client.callTool({
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'Review the importer.' },
    });
    const [accepted] = await memberOf(team, 'reviewer').inbox();
    expect(result.structuredContent).toEqual({ messageId: accepted?.id, target: 'reviewer' });
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining(`as message ${accepted?.id}`) }]);
    expect(result.isError).toBeUndefined();
    await server.close();
  });

  it("given every tool called with success through the Client, then each structured result passes the Client's outputSchema check", async () => {
    const team = await toolTeam(['reviewer']);
    await handleToolCall(memberOf(team, 'reviewer'), {
      name: 'send_message',
      arguments: { target: 'lead', message: 'ready' },
    });
    const { client, server } = await connect(team.lead);
    await client.listTools();
    const calls: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
      ['send_message', { target: 'reviewer', message: 'go' }],
      ['read_inbox', {}],
      ['list_members', {}],
      ['spawn_member', { name: 'helper', description: 'helps' }],
      ['create_task', { subject: 'Review', owner: 'reviewer' }],
      ['list_tasks', {}],
      ['update_task', { taskId: 'task-1', expectedRevision: 1, owner: null }],
      ['claim_task', { taskId: 'task-1' }],
    ];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect([name, result.isError, typeof result.structuredContent]).toEqual([name, undefined, 'object']);
    }
    await server.close();
  });

  it('given a refused call, then it is an error result with the sentence and no structured content', async () => {
    const team = await toolTeam(['reviewer']);
    const { client, server } = await connect(team.lead);
    const result = await client.callTool({ name: 'send_message', arguments: { target: 'ghost', message: 'hello?' } });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'There is no team member or session "ghost"; list_members shows who is on the team.' },
      ],
      isError: true,
    });
    const forged = await client.callTool({
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'hi', sender: 'reviewer' },
    });
    expect(forged.isError).toBe(true);
    expect(await memberOf(team, 'reviewer').inbox()).toEqual([]);
    await server.close();
  });

  it('given the resources, then inbox, roster and tasks are listed and read as the JSON the matching tools return', async () => {
    const team = await toolTeam(['reviewer']);
    const reviewer = memberOf(team, 'reviewer');
    await handleToolCall(team.lead, { name: 'send_message', arguments: { target: 'reviewer', message: 'hi' } });
    await handleToolCall(team.lead, { name: 'create_task', arguments: { subject: 'Review' } });
    const { client, server } = await connect(reviewer);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => [resource.name, resource.uri, resource.mimeType])).toEqual([
      ['inbox', inboxUri(reviewer.handle.sessionId), 'application/json'],
      ['roster', rosterUri(reviewer.handle.teamId), 'application/json'],
      ['tasks', tasksUri(reviewer.handle.teamId), 'application/json'],
    ]);
    for (const [uri, tool] of [
      [inboxUri(reviewer.handle.sessionId), 'read_inbox'],
      [rosterUri(reviewer.handle.teamId), 'list_members'],
      [tasksUri(reviewer.handle.teamId), 'list_tasks'],
    ] as const) {
      const [content] = (await client.readResource({ uri })).contents;
      const expected = (await handleToolCall(reviewer, { name: tool, arguments: {} })).structuredContent;
      expect(JSON.parse(content !== undefined && 'text' in content ? content.text : 'null')).toEqual(expected);
    }
    await expect(client.readResource({ uri: inboxUri(team.lead.handle.sessionId) })).rejects.toThrow(
      'not a resource of this session',
    );
    await server.close();
  });

  it('given a subscription to the inbox, then the client is told each time the inbox accepts a message, until it unsubscribes', async () => {
    const store = new InMemoryEventStore();
    const team = await toolTeam(['reviewer', 'researcher'], store);
    const reviewer = memberOf(team, 'reviewer');
    const { client, server, updates } = await connect(reviewer, store);
    const uri = inboxUri(reviewer.handle.sessionId);
    await client.subscribeResource({ uri });
    await handleToolCall(team.lead, { name: 'send_message', arguments: { target: 'reviewer', message: 'one' } });
    await handleToolCall(memberOf(team, 'researcher'), {
      name: 'send_message',
      arguments: { target: 'lead', message: 'not for the reviewer' },
    });
    await handleToolCall(memberOf(team, 'researcher'), {
      name: 'send_message',
      arguments: { target: 'reviewer', message: 'two' },
    });
    await until(() => updates.length >= 2);
    expect(updates).toEqual([uri, uri]);
    await client.unsubscribeResource({ uri });
    await handleToolCall(team.lead, { name: 'send_message', arguments: { target: 'reviewer', message: 'three' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updates).toEqual([uri, uri]);
    await server.close();
  });

  it('given a subscription to a resource that sends no updates, or a server without an inbox watch, then it is refused', async () => {
    const store = new InMemoryEventStore();
    const team = await toolTeam(['reviewer'], store);
    const watched = await connect(team.lead, store);
    await expect(watched.client.subscribeResource({ uri: rosterUri(team.lead.handle.teamId) })).rejects.toThrow(
      `only ${inboxUri(team.lead.handle.sessionId)} sends updates`,
    );
    const unwatched = await connect(team.lead);
    expect(unwatched.client.getServerCapabilities()?.resources).toEqual({ subscribe: false });
    await expect(unwatched.client.subscribeResource({ uri: inboxUri(team.lead.handle.sessionId) })).rejects.toThrow();
    await Promise.all([watched.server.close(), unwatched.server.close()]);
  });
});
