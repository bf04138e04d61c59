import { createTeamLog, teamNameOf } from '@teamlog/team';
import { valueFlag } from '../argument-parser';
import { badInput, usageError } from '../cli-errors';
import { jsonFlag, storeFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { writeJson } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';
import { styleFor } from '../text/text-style';

/** A team name is for people: one line, not too long. */
const maxTeamName = 200;

const checkedName = (name: string | undefined): string | undefined => {
  if (name === undefined) return undefined;
  if (name.trim() === '' || name.length > maxTeamName || /[\u0000-\u001f\u007f]/.test(name)) {
    throw badInput(
      `--name: expected 1 to ${maxTeamName} characters on one line, got ${JSON.stringify(name.slice(0, 40))}${name.length > 40 ? '…' : ''}`,
    );
  }
  return name;
};

export const teamCommand = defineCommand(
  {
    name: 'team',
    summary:
      'Create a team (its Lead session) on the store and print the ids an agent is given with `teamlog mcp --session`.',
    positionals: [{ name: 'action', arity: 'one', description: '`create`' }],
    flags: {
      name: valueFlag('NAME', "the team's readable name (default: the last segment of --cwd)"),
      cwd: valueFlag('DIR', "the Lead's working directory, recorded in its session header (default: this directory)"),
      store: storeFlag,
      json: jsonFlag,
    },
    notes: [
      'The team starts with its Lead alone; the Lead spawns members (the spawn_member tool of `teamlog mcp`).',
      'JSON: { "teamId", "leadSessionId", "name" }. `teamlog sessions` lists the sessions an agent can be given.',
    ],
  },
  async ({ positionals, flags }, { io }) => {
    if (positionals[0] !== 'create')
      throw usageError(`team: unknown action "${positionals[0] ?? ''}"; the action is \`create\``, 'team');
    const name = checkedName(flags.name);
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    if (location.kind === 'memory')
      throw badInput(
        'team create: a team in :memory: is gone when the command ends; give --store FILE (or a PostgreSQL URL)',
      );
    const cwd = flags.cwd ?? io.cwd;
    const created = await withStore(location, { access: 'create' }, async ({ store }) => {
      const teamlog = createTeamLog({ store });
      try {
        const options = { cwd, ...(name === undefined ? {} : { name }) };
        const lead = await teamlog.createTeam(options);
        const teamName = teamNameOf(options);
        return {
          teamId: lead.teamId,
          leadSessionId: lead.sessionId,
          ...(teamName === undefined ? {} : { name: teamName }),
        };
      } finally {
        await teamlog.dispose();
      }
    });
    const store = describeStoreLocation(location);
    if (flags.json) {
      writeJson(io, created);
      return ExitCode.ok;
    }
    const style = styleFor(io.stdoutIsTerminal, io.env);
    io.stdout(
      `${[
        style.heading(
          `Created team ${created.name === undefined ? created.teamId : `"${created.name}" (${created.teamId})`}`,
        ),
        `Lead session: ${created.leadSessionId}`,
        `Store: ${store}`,
        '',
        'Give an agent the Lead:',
        `  teamlog mcp --session ${created.leadSessionId} --store ${store}`,
      ].join('\n')}\n`,
    );
    return ExitCode.ok;
  },
);
