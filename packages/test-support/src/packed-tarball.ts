import { execFile } from 'node:child_process';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { decodeWith } from '@teamlog/events';

/* `npm pack --json` of workspace packages: what each tarball holds, as npm reports it. */

export const PackedTarball = t.type({
  name: t.string,
  version: t.string,
  filename: t.string,
  /** Bytes of the .tgz. */
  size: t.number,
  unpackedSize: t.number,
  files: t.array(t.type({ path: t.string, size: t.number })),
});
export type PackedTarball = t.TypeOf<typeof PackedTarball>;

export interface PackOptions {
  /** Where the tarballs are written; without it, npm only reports what it would pack (`--dry-run`). */
  readonly destination?: string;
}

const run = (command: string, args: readonly string[], cwd: string): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error === null
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr}`)),
    ),
  );

/** Pack the workspace packages under `<root>/packages/<directory>`, one `npm pack` for all. */
export const packWorkspaces = async (
  root: string,
  directories: readonly string[],
  options: PackOptions = {},
): Promise<PackedTarball[]> => {
  const target = options.destination === undefined ? ['--dry-run'] : ['--pack-destination', options.destination];
  const args = [
    'pack',
    '--json',
    '--ignore-scripts',
    ...target,
    ...directories.flatMap((directory) => ['--workspace', `packages/${directory}`]),
  ];
  const stdout = await run('npm', args, root);
  const decoded = decodeWith(t.array(PackedTarball), 'npm pack --json')(JSON.parse(stdout));
  if (isLeft(decoded)) throw decoded.left;
  return decoded.right;
};
