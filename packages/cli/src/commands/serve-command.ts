import type { SessionLogFollower } from '@teamlog/dsh';
import { valueFlag } from '../argument-parser';
import { storeFlag } from '../common-flags';
import { type Command, defineCommand } from '../command';
import { usageError } from '../cli-errors';
import type { CliIo } from '../cli-io';
import { ExitCode } from '../exit-code';
import { batchLine, describeFollowMode, followWithViews } from '../follow-with-views';
import { requireLogPath } from '../log-path-argument';
import { type OpenedStore, withStore } from '../open-teamlog-store';
import { pollArgument, pollFlag, withBarePoll } from '../poll-argument';
import { portArgument } from '../port-argument';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';

/** `defaultDashboardPort` of @teamlog/dashboard (a test keeps them equal); the dashboard is loaded only when serving. */
export const servePort = 7420;

/** `--follow ROOT`: the watcher in the same process, writing through the store the dashboard reads. */
const startFollowing = async (
  opened: OpenedStore,
  root: string,
  pollMs: number | undefined,
  io: CliIo,
): Promise<SessionLogFollower> => {
  const follower = await followWithViews(opened, root, {
    ...(pollMs === undefined ? {} : { pollMs }),
    onBatch: (reported) => {
      reported.batch.warnings.forEach((warning) => io.stderr(`teamlog: warning: ${warning}\n`));
      io.stderr(`teamlog: ${batchLine(reported)}\n`);
    },
  });
  io.stderr(`teamlog: following ${root}, ${describeFollowMode(follower.mode())}\n`);
  return follower;
};

const serveUntilStopped = async (
  { store, committedViews }: OpenedStore,
  flags: { readonly host: string | undefined },
  port: number,
  follower: SessionLogFollower | undefined,
  io: CliIo,
  storeName: string,
  interrupted: Promise<void>,
): Promise<void> => {
  const { startDashboardServer } = await import('@teamlog/dashboard');
  const server = await startDashboardServer({
    store,
    port,
    ...(committedViews === undefined ? {} : { committedViews }),
    ...(flags.host === undefined ? {} : { host: flags.host }),
  });
  try {
    io.stdout(`${server.url}\n`);
    io.stderr(`teamlog: serving ${storeName} at ${server.url} (Ctrl-C stops)\n`);
    const { start } = server;
    io.stderr(
      start.from === 'committed-views'
        ? `teamlog: views from the store's committed views at ${start.checkpoint}, ${start.eventsFolded} newer events folded\n`
        : `teamlog: views folded from ${start.eventsFolded} events\n`,
    );
    // A follower that fails (its store failed) ends the serving too.
    await Promise.race([interrupted, ...(follower === undefined ? [] : [follower.done])]);
  } finally {
    await server.close();
  }
};

const serve = defineCommand(
  {
    name: 'serve',
    summary: "Serve the read-only web dashboard and its JSON API over the store's views, live, until Ctrl-C.",
    positionals: [],
    flags: {
      store: storeFlag,
      port: valueFlag('N', `the port to listen on (default ${servePort}; 0 picks a free one)`),
      host: valueFlag('HOST', 'the interface to listen on (default 127.0.0.1: the dashboard has no authentication)'),
      follow: valueFlag(
        'ROOT',
        'also follow the session logs under ROOT as `teamlog watch` does, so the page moves as the harness writes',
      ),
      poll: { ...pollFlag, description: `with --follow: ${pollFlag.description}` },
    },
    notes: [
      'The first line on stdout is the URL. The dashboard never writes to the store; with --follow the',
      'watcher in the same process does (it creates the store if needed). docs/dashboard.md describes the API.',
    ],
  },
  async ({ flags }, { io }) => {
    const port = portArgument(flags.port, servePort, 'serve');
    const pollMs = pollArgument(flags.poll, 'serve');
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const root = flags.follow;
    if (pollMs !== undefined && root === undefined) throw usageError('serve: --poll goes with --follow ROOT', 'serve');
    // Before the store is opened: a bad root never creates one.
    if (root !== undefined) await requireLogPath(root);
    // Listening from the start: Ctrl-C during the first import of --follow lets that batch finish.
    const interrupted = io.untilInterrupted();
    await withStore(location, { access: root === undefined ? 'read' : 'create' }, async (opened) => {
      const follower = root === undefined ? undefined : await startFollowing(opened, root, pollMs, io);
      try {
        await serveUntilStopped(opened, flags, port, follower, io, describeStoreLocation(location), interrupted);
      } finally {
        // The batch in progress finishes; a follower that failed (the store failed) throws here.
        await follower?.stop();
      }
    });
    return ExitCode.ok;
  },
);

/** `teamlog serve`: `--poll` alone means the default interval (see poll-argument.ts). */
export const serveCommand: Command = {
  name: serve.name,
  syntax: serve.syntax,
  execute: (argv, context) => serve.execute(withBarePoll(argv), context),
};
