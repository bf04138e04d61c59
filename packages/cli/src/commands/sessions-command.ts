import { jsonFlag, storeFlag, teamFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { writeJson } from '../json-output';
import { type LiveSession, liveSessions } from '../live-sessions';
import { withStore } from '../open-teamlog-store';
import { readViews } from '../read-views';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';
import { styleFor } from '../text/text-style';

const teamLabel = (session: LiveSession): string =>
  session.teamName === undefined ? session.teamId : `${session.teamName} (${session.teamId})`;

export const sessionsCommand = defineCommand(
  {
    name: 'sessions',
    summary:
      "List the live sessions (teamlog's own, not closed) an agent can be given with `teamlog mcp --session ID`.",
    positionals: [],
    flags: { store: storeFlag, json: jsonFlag, team: teamFlag },
    notes: ['Imported historical sessions are read-only and not listed. `teamlog team create` makes a team.'],
  },
  async ({ flags }, { io }) => {
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const sessions = await withStore(location, { access: 'read' }, async (opened) =>
      liveSessions((await readViews(opened, undefined)).views, flags.team),
    );
    if (flags.json) {
      writeJson(io, { sessions });
      return ExitCode.ok;
    }
    const store = describeStoreLocation(location);
    if (sessions.length === 0) {
      io.stdout(
        `No live sessions${flags.team === undefined ? '' : ` of team ${flags.team}`} in ${store}. Create a team: teamlog team create --store ${store}\n`,
      );
      return ExitCode.ok;
    }
    const style = styleFor(io.stdoutIsTerminal, io.env);
    const lines = sessions.map(
      (session) =>
        `${session.sessionId}  ${session.role.padEnd(6)}  ${session.name}  ${session.status}  team ${teamLabel(session)}`,
    );
    io.stdout(
      `${[
        style.heading('SESSION  ROLE  NAME  STATUS  TEAM'),
        ...lines,
        '',
        style.dim(`Act as one: teamlog mcp --session ID --store ${store}`),
      ].join('\n')}\n`,
    );
    return ExitCode.ok;
  },
);
