import { runDemo } from '@teamlog/scripted-host';
import { valueFlag } from '../argument-parser';
import { jsonFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { writeJson } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { readViews } from '../read-views';
import { type StoreLocation, describeStoreLocation, resolveStoreLocation } from '../store-location';
import { renderAudit } from '../text/audit-text';
import { renderDemo } from '../text/demo-text';
import { renderInboxCounts } from '../text/inbox-text';
import { renderTeam } from '../text/team-text';
import { styleFor } from '../text/text-style';

/** Where the demo's team is now, and how to see it on the dashboard. */
const whereItWrote = (location: StoreLocation): string[] =>
  location.kind === 'memory'
    ? [
        'The demo wrote to :memory:, so nothing is kept. To see it on the dashboard:',
        '  teamlog demo --store demo.db',
        '  teamlog serve --store demo.db',
      ]
    : [
        `The demo wrote to ${describeStoreLocation(location)}. See it on the dashboard:`,
        `  teamlog serve --store ${describeStoreLocation(location)}`,
      ];

export const demoCommand = defineCommand(
  {
    name: 'demo',
    summary:
      'Run a scripted team (a Lead, a researcher, an implementer, a reviewer) on the real engine and the embedded store, then show its views.',
    positionals: [],
    flags: {
      store: valueFlag(
        'STORE',
        'where the demo writes (default :memory:, nothing kept; give a FILE to look at it later with the other commands)',
      ),
      json: jsonFlag,
    },
    notes: [
      'The demo shows a steer into a running member, a wake of an idle member, a cold resume of an evicted',
      'member, a send refused because its target was killed, and tasks with dependencies.',
      '$TEAMLOG_STORE is ignored here so the demo never writes into your real store by accident.',
    ],
  },
  async ({ flags }, { io }) => {
    const location = resolveStoreLocation(flags.store ?? ':memory:', {}, io.cwd);
    const { demo, document } = await withStore(location, { access: 'create' }, async (opened) => {
      const summary = await runDemo(opened.store);
      const { views, position } = await readViews(opened, undefined);
      return { demo: summary, document: { ...views.replay(), store: describeStoreLocation(location), position } };
    });
    if (flags.json) {
      writeJson(io, { demo, ...document });
      return ExitCode.ok;
    }
    const style = styleFor(io.stdoutIsTerminal, io.env);
    const lines = [
      ...renderDemo(demo, style),
      '',
      style.heading('The views the projections built from the store:'),
      ...document.teams.flatMap((team) => ['', ...renderTeam(team, style)]),
      '',
      ...renderInboxCounts(document.inbox, style),
      '',
      ...renderAudit(document.audit, style),
      '',
      style.dim(`Store ${document.store}${document.position === null ? '' : ` at position ${document.position}`}`),
      ...whereItWrote(location),
    ];
    io.stdout(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  },
);
