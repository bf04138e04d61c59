import type { Readable, Writable } from 'node:stream';
import { StdioFrameTransport, type StdioFrameTransportOptions } from './stdio-frame-transport';
import type { TeamMcpServer } from './team-mcp-server';

/** The streams MCP frames travel on: a process's stdin and stdout, or pipes in a test. */
export interface StdioStreams {
  readonly input: Readable;
  /** Only protocol frames are written here. */
  readonly output: Writable;
}

const ended = (input: Readable): Promise<void> =>
  new Promise((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });

/**
 * Serve newline-delimited JSON-RPC over the streams until the client closes the input (as an MCP
 * client does to stop its server), the connection closes, or `until` resolves; then close the server.
 * A bad frame is answered with a JSON-RPC error and the server serves on (stdio-frame-transport.ts).
 */
export const serveStdio = async (
  server: TeamMcpServer,
  { input, output }: StdioStreams,
  until: Promise<void>,
  options: StdioFrameTransportOptions = {},
): Promise<void> => {
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(new StdioFrameTransport(input, output, options));
  await Promise.race([ended(input), closed, until]);
  await server.close();
};
