import type { TeamView } from '@teamlog/projections';
import { asOfOption } from './as-of-argument';
import { asOfFlag, jsonFlag, storeFlag, teamFlag } from './common-flags';
import { type Command, defineCommand } from './command';
import { ExitCode } from './exit-code';
import { writeJson } from './json-output';
import { withStore } from './open-teamlog-store';
import { readViews } from './read-views';
import { selectTeams } from './select-teams';
import { resolveStoreLocation } from './store-location';
import { type TextStyle, styleFor } from './text/text-style';

/** What a per-team command (roster, tasks, legacy) prints of each team. */
export interface TeamViewCommandSpec {
  readonly name: string;
  readonly summary: string;
  /** The team's fields of this view, for `--json`. */
  readonly json: (team: TeamView) => Readonly<Record<string, unknown>>;
  readonly text: (team: TeamView, style: TextStyle) => string[];
}

/** roster, tasks and legacy share everything but what they show of a team. */
export const teamViewCommand = (spec: TeamViewCommandSpec): Command =>
  defineCommand(
    {
      name: spec.name,
      summary: spec.summary,
      positionals: [],
      flags: { store: storeFlag, json: jsonFlag, team: teamFlag, 'as-of': asOfFlag },
    },
    async ({ flags }, { io }) => {
      const asOf = asOfOption(flags['as-of'], spec.name);
      const location = resolveStoreLocation(flags.store, io.env, io.cwd);
      const teams = await withStore(location, { access: 'read' }, async (opened) =>
        selectTeams((await readViews(opened, asOf)).views.teams(), flags.team),
      );
      if (flags.json) {
        writeJson(io, { teams: teams.map((team) => ({ teamId: team.teamId, ...spec.json(team) })) });
        return ExitCode.ok;
      }
      const style = styleFor(io.stdoutIsTerminal, io.env);
      const lines =
        teams.length === 0
          ? ['No teams in the store (no log has a team record).']
          : teams.flatMap((team, index) => [...(index === 0 ? [] : ['']), ...spec.text(team, style)]);
      io.stdout(`${lines.join('\n')}\n`);
      return ExitCode.ok;
    },
  );
