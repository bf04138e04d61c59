import { booleanFlag } from '../argument-parser';
import { storeFlag } from '../common-flags';
import { type Command, defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { batchJson, batchLine, describeFollowMode, followWithViews } from '../follow-with-views';
import { requireLogPath } from '../log-path-argument';
import { withStore } from '../open-teamlog-store';
import { pollArgument, pollFlag, withBarePoll } from '../poll-argument';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';

const watch = defineCommand(
  {
    name: 'watch',
    summary:
      'Import the session logs under a root, then keep following them as the harness writes, until Ctrl-C (views move with every batch).',
    positionals: [
      {
        name: 'root',
        arity: 'one',
        description: "the harness's sessions root (e.g. ~/.dsh/sessions), a session directory, or one log file",
      },
    ],
    flags: {
      store: storeFlag,
      poll: pollFlag,
      json: booleanFlag('print one JSON object per batch (one line each) instead of text'),
    },
    notes: [
      'New session directories and logs at any depth, logs that grow (only the new tail is read; a line or',
      'zstd frame still being written waits until it is whole) and a higher generation beside a lower one',
      'are imported; nothing is imported twice (a migration that renumbered the seqs supersedes the lower',
      'generation, as a replay of the final files reads the later one). A log that shrinks or is replaced',
      'by different content is a one-line warning on stderr, and nothing is written from it.',
      'Ctrl-C or SIGTERM: the batch in progress finishes, then teamlog exits 0. Other commands (roster,',
      'inbox, audit, serve) can read the same store meanwhile. docs/historical-logs.md#following-a-running-harness.',
    ],
  },
  async ({ positionals, flags }, { io }) => {
    const root = positionals[0] as string;
    const pollMs = pollArgument(flags.poll, 'watch');
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    // Before the store is opened: a bad root never creates one.
    await requireLogPath(root);
    // Listening from the start: Ctrl-C during the first import lets that batch finish too.
    const interrupted = io.untilInterrupted().then(() => 'interrupted' as const);
    await withStore(location, { access: 'create' }, async (opened) => {
      const follower = await followWithViews(opened, root, {
        ...(pollMs === undefined ? {} : { pollMs }),
        onBatch: (reported) => {
          reported.batch.warnings.forEach((warning) => io.stderr(`teamlog: warning: ${warning}\n`));
          io.stdout(flags.json ? `${JSON.stringify(batchJson(reported))}\n` : `${batchLine(reported)}\n`);
        },
      });
      io.stderr(
        `teamlog: following ${root} into ${describeStoreLocation(location)}, ${describeFollowMode(follower.mode())} (Ctrl-C stops)\n`,
      );
      const failed = follower.done.then(() => 'stopped' as const);
      const outcome = await Promise.race([interrupted, failed]);
      if (outcome === 'interrupted') await follower.stop();
      io.stderr('teamlog: stopped following\n');
    });
    return ExitCode.ok;
  },
);

/** `teamlog watch ROOT`: `--poll` alone means the default interval (see poll-argument.ts). */
export const watchCommand: Command = {
  name: watch.name,
  syntax: watch.syntax,
  execute: (argv, context) => watch.execute(withBarePoll(argv), context),
};
