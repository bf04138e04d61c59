import { replayTotals, sessionJson } from '../build-replay-document';
import { jsonFlag, storeFlag, strictFlag } from '../common-flags';
import { defineCommand } from '../command';
import { badPaths, checkPaths, importPaths } from '../import-paths';
import { writeJson } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { progressFor } from '../progress-for';
import { describeStoreLocation, resolveStoreLocation } from '../store-location';
import { strictExitCode } from '../strict-exit-code';
import { renderSessions } from '../text/sessions-text';
import { styleFor } from '../text/text-style';
import { rejectedNamedFile } from '../rejected-named-file';

export const importCommand = defineCommand(
  {
    name: 'import',
    summary:
      'Import historical session logs into the store without printing the views (idempotent; a grown log appends only its new tail).',
    positionals: [
      {
        name: 'path',
        arity: 'many',
        description: 'session log files, session directories, or roots of them (searched recursively)',
      },
    ],
    flags: {
      store: storeFlag,
      json: jsonFlag,
      strict: { ...strictFlag, description: 'exit 1 when a file was rejected' },
    },
  },
  async ({ positionals, flags }, { io }) => {
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const { usable, problems } = await checkPaths(positionals);
    if (usable.length === 0) throw badPaths(problems) as Error;
    const imports = await withStore(location, { access: 'create', importAndEnd: true }, async (opened) =>
      importPaths(usable, opened.store, await progressFor(io, 'importing')),
    );
    const results = imports.map(({ result }) => result);
    const totals = replayTotals(results);
    const store = describeStoreLocation(location);
    if (flags.json) writeJson(io, { sessions: results.map(sessionJson), totals, store });
    else
      io.stdout(
        `${[...renderSessions(results.map(sessionJson), totals, styleFor(io.stdoutIsTerminal, io.env)), `Store ${store}`].join('\n')}\n`,
      );
    const badInput = badPaths(problems) ?? rejectedNamedFile(imports);
    if (badInput !== undefined) throw badInput;
    return strictExitCode(flags.strict, totals.rejected);
  },
);
