import { isAbsolute, join } from 'node:path';
import { type Compression, exportSession } from '@teamlog/dsh';
import { booleanFlag, valueFlag } from '../argument-parser';
import { jsonFlag, storeFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { writeJson } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { sessionArgument } from '../session-argument';
import { storedSessionHeader } from '../stored-session-header';
import { resolveStoreLocation } from '../store-location';
import { plural } from '../text/plural';

/** `<session id>.v<N>.jsonl[.zstd]` with every character a file name should not hold replaced. */
export const defaultExportFileName = (sessionId: string, formatVersion: number, compression: Compression): string =>
  `${sessionId.replace(/[^A-Za-z0-9._-]+/g, '_')}${formatVersion === 0 ? '' : `.v${formatVersion}`}.jsonl${compression === 'zstd' ? '.zstd' : ''}`;

export const exportCommand = defineCommand(
  {
    name: 'export',
    summary:
      'Write a stored session back as a historical session log of its generation, which `teamlog replay` reads again.',
    positionals: [{ name: 'session', arity: 'one', description: 'the session id (as `teamlog replay` lists it)' }],
    flags: {
      out: valueFlag('FILE', 'the file to write (default <session>.v<N>.jsonl in the current directory)'),
      zstd: booleanFlag('write zstd frames instead of raw JSONL'),
      store: storeFlag,
      json: jsonFlag,
    },
  },
  async ({ positionals, flags }, { io }) => {
    const sessionId = sessionArgument(positionals[0], 'export');
    const compression: Compression = flags.zstd ? 'zstd' : 'none';
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const result = await withStore(location, { access: 'read' }, async ({ store }) => {
      const header = await storedSessionHeader(store, sessionId);
      const named = flags.out ?? defaultExportFileName(sessionId, header.formatVersion, compression);
      return exportSession(store, sessionId, { file: isAbsolute(named) ? named : join(io.cwd, named), compression });
    });
    if (flags.json) writeJson(io, result);
    else
      io.stdout(
        `Exported ${plural(result.events, 'event')} of session ${result.sessionId} (V${result.formatVersion}, ${result.bytes} bytes) to ${result.file}\n`,
      );
    return ExitCode.ok;
  },
);
