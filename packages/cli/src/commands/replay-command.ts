import { asOfFlag, jsonFlag, storeFlag, strictFlag } from '../common-flags';
import { asOfOption, describeAsOf } from '../as-of-argument';
import { buildReplayDocument } from '../build-replay-document';
import { defineCommand } from '../command';
import { badPaths, checkPaths, importPaths } from '../import-paths';
import { rejectedNamedFile } from '../rejected-named-file';
import { writeJsonDrained } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { progressFor } from '../progress-for';
import { importWithViews } from '../import-with-views';
import { readViews } from '../read-views';
import type { ReplayDocument } from '../replay-document';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';
import { strictExitCode } from '../strict-exit-code';
import { styleFor } from '../text/text-style';

/** Rejected files (other than files that are not session logs at all), team failures and audit findings. */
export const replayProblems = (document: ReplayDocument): number =>
  document.totals.rejected + document.teams.filter((team) => team.failure !== null).length + document.audit.length;

export const replayCommand = defineCommand(
  {
    name: 'replay',
    summary:
      'Import historical session logs into the store, build the views, and print what they show:\n' +
      'sessions, teams, roster, tasks, the legacy mailbox (undelivered messages highlighted), inbox counts, audit findings and failures.',
    positionals: [
      {
        name: 'path',
        arity: 'many',
        description: 'session log files, session directories, or roots of them (searched recursively)',
      },
    ],
    flags: { store: storeFlag, json: jsonFlag, 'as-of': asOfFlag, strict: strictFlag },
    notes: [
      'Importing is idempotent: replaying the same logs again appends nothing. A file rejected as a',
      'whole is listed with its reason and the replay goes on; if you named that file itself, teamlog',
      'exits 3 after printing the summary. --store :memory: keeps nothing.',
    ],
  },
  async ({ positionals, flags }, { io }) => {
    const asOf = asOfOption(flags['as-of'], 'replay');
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const { usable, problems } = await checkPaths(positionals);
    if (usable.length === 0) throw badPaths(problems) as Error;
    // Without --as-of the views are read once, at the end: nothing needs the events afterwards, so
    // :memory: keeps none. Should a session come twice (a copy of a log), that store cannot compare
    // the copy with what it imported, and the replay runs again on a store that keeps the events.
    const replayOnce = (oneShot: boolean) =>
      withStore(location, { access: 'create', oneShot, importAndEnd: true }, async (opened) => {
        const progress = await progressFor(io, 'importing');
        const imports = await importWithViews(opened, () =>
          importPaths(
            usable,
            opened.store,
            progress,
            opened.singlePassBytes === undefined ? {} : { singlePassBytes: opened.singlePassBytes },
          ),
        );
        if (oneShot && imports.some(({ result }) => result.rejected?.reason === 'prefix-not-kept')) return undefined;
        const { views, position } = await readViews(opened, asOf);
        const built = buildReplayDocument({
          results: imports.map(({ result }) => result),
          view: views.replay(),
          store: describeStoreLocation(location),
          position,
          ...(asOf === undefined ? {} : { asOf: describeAsOf(asOf) }),
        });
        if (flags.json) await writeJsonDrained(io, built);
        else {
          // The text renderers load only for a person reading: --json never needs them.
          const { renderReplaySummary } = await import('../text/replay-summary-text');
          io.stdout(renderReplaySummary(built, styleFor(io.stdoutIsTerminal, io.env)));
        }
        const badInput = badPaths(problems) ?? rejectedNamedFile(imports);
        if (badInput !== undefined) throw badInput;
        return built;
      });
    const document =
      (asOf === undefined ? await replayOnce(true) : undefined) ?? ((await replayOnce(false)) as ReplayDocument);
    return strictExitCode(flags.strict, replayProblems(document));
  },
);
