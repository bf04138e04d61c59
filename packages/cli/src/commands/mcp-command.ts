import type { SessionId } from '@teamlog/events';
import { type TeamLog, createTeamLog, isTeamLogError } from '@teamlog/team';
import type { ToolSession } from '@teamlog/tools';
import { valueFlag } from '../argument-parser';
import { badInput, usageError } from '../cli-errors';
import { storeFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { withStore } from '../open-teamlog-store';
import { sessionArgument } from '../session-argument';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';

const oneLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');

/** The session's role and team are read from its own stream; a session that is not on a team is bad input. */
const openSession = async (teamlog: TeamLog, sessionId: SessionId, store: string): Promise<ToolSession> => {
  const { isToolError, openToolSession } = await import('@teamlog/tools');
  try {
    return await openToolSession(teamlog, sessionId);
  } catch (error) {
    if (isToolError(error, 'NotATeamSession') || isTeamLogError(error, 'MemberNotFound', 'TeamNotFound')) {
      throw badInput(
        `${error.message} (no active team session "${sessionId}" in ${store}); \`teamlog sessions --store ${store}\` lists the live ones, \`teamlog team create --store ${store}\` makes a team`,
      );
    }
    throw error;
  }
};

export const mcpCommand = defineCommand(
  {
    name: 'mcp',
    summary: "Serve one session's Team toolset and its inbox, roster and tasks to an agent runtime over MCP (stdio).",
    positionals: [],
    flags: {
      session: valueFlag('ID', "the session to act as: the Lead's or a member's session id (required)"),
      store: storeFlag,
    },
    notes: [
      'stdin and stdout carry only MCP frames; logs go to stderr. It stops when the client closes stdin (or on Ctrl-C).',
      'Every message is sent as this session. Several `teamlog mcp` processes on one store (a SQLite file, a PostgreSQL database) form one team.',
      'docs/tools.md lists the tools and their error sentences.',
    ],
  },
  async ({ flags }, { io }) => {
    if (flags.session === undefined) throw usageError('mcp: --session ID is required', 'mcp');
    const sessionId = sessionArgument(flags.session, 'mcp');
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const report = (error: unknown): void => io.stderr(`teamlog: ${oneLine(error)}\n`);
    await withStore(location, { access: 'write' }, async ({ store }) => {
      // Loaded only here: the MCP SDK (and its schema libraries) costs every other command's start.
      const { createTeamMcpServer, serveStdio, storeInboxWatch } = await import('@teamlog/tools');
      const teamlog = createTeamLog({ store, onListenerError: report });
      try {
        const session = await openSession(teamlog, sessionId, describeStoreLocation(location));
        const server = createTeamMcpServer({ session, watchInbox: storeInboxWatch(store, sessionId, report) });
        io.stderr(
          `teamlog: serving ${session.handle.role} "${session.handle.name}" (session ${sessionId}) of team ${session.handle.teamId} over MCP on stdio\n`,
        );
        await serveStdio(server, io.stdio(), io.untilInterrupted());
      } finally {
        await teamlog.dispose();
      }
    });
    return ExitCode.ok;
  },
);
