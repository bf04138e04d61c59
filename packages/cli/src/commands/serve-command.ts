import { valueFlag } from '../argument-parser';
import { storeFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { withStore } from '../open-teamlog-store';
import { portArgument } from '../port-argument';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';

/** `defaultDashboardPort` of @teamlog/dashboard (a test keeps them equal); the dashboard is loaded only when serving. */
export const servePort = 7420;

export const serveCommand = defineCommand(
  {
    name: 'serve',
    summary: 'Serve the read-only web dashboard and its JSON API over the store\'s views, live, until Ctrl-C.',
    positionals: [],
    flags: {
      store: storeFlag,
      port: valueFlag('N', `the port to listen on (default ${servePort}; 0 picks a free one)`),
      host: valueFlag('HOST', 'the interface to listen on (default 127.0.0.1: the dashboard has no authentication)'),
    },
    notes: ['The first line on stdout is the URL. The dashboard never writes to the store. docs/dashboard.md describes the API.'],
  },
  async ({ flags }, { io }) => {
    const port = portArgument(flags.port, servePort, 'serve');
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    await withStore(location, { access: 'read' }, async ({ store, committedViews }) => {
      const { startDashboardServer } = await import('@teamlog/dashboard');
      const server = await startDashboardServer({
        store,
        port,
        ...(committedViews === undefined ? {} : { committedViews }),
        ...(flags.host === undefined ? {} : { host: flags.host }),
      });
      io.stdout(`${server.url}\n`);
      io.stderr(`teamlog: serving ${describeStoreLocation(location)} at ${server.url} (Ctrl-C stops)\n`);
      const { start } = server;
      io.stderr(
        start.from === 'committed-views'
          ? `teamlog: views from the store's committed views at ${start.checkpoint}, ${start.eventsFolded} newer events folded\n`
          : `teamlog: views folded from ${start.eventsFolded} events\n`,
      );
      await io.untilInterrupted();
      await server.close();
    });
    return ExitCode.ok;
  },
);
