import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from './free-port';
import { ensurePostgresBinaries } from './install-postgres';
import type { PostgresBinaries } from './postgres-binaries';
import { PostgresSetupFailed } from './postgres-setup-failed';
import { runProgram, tailOf } from './run-program';
import { type ServerUser, serverUser } from './server-user';

/** A PostgreSQL cluster in a temp directory on a loopback port, for one test run or bench run. */
export interface ThrowawayCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly url: string;
  readonly port: number;
  readonly directory: string;
  /** `pg_ctl restart -m fast`: every connection is dropped, the data is kept. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m immediate` (as a crash: every connection dropped mid-statement), keeping the data for `start`. */
  halt(): Promise<void>;
  /** Start a halted server again on the same port and data (crash recovery runs first). */
  start(): Promise<void>;
  /** Stop the server and remove its directory. */
  stop(): Promise<void>;
}

export interface ThrowawayClusterOptions {
  readonly log?: (line: string) => void;
  /** Server settings (`-c name=value`); durability settings stay at their safe defaults. */
  readonly settings?: Readonly<Record<string, string>>;
}

const defaultSettings: Readonly<Record<string, string>> = { max_connections: '300', listen_addresses: '127.0.0.1' };

const run = async (user: ServerUser, step: string, command: string, args: readonly string[]): Promise<void> => {
  const wrapped = user.wrap(command, args);
  // From a directory every user may enter: the server's user may not be allowed into the caller's (a checkout under /root).
  const result = await runProgram(wrapped.command, wrapped.args, process.env, tmpdir());
  if (result.code !== 0)
    throw new PostgresSetupFailed(step, `exit ${result.code ?? 'not started'}: ${tailOf(result.output)}`);
};

const serverOptions = (port: number, socketDirectory: string, settings: Readonly<Record<string, string>>): string =>
  [
    `-p ${port}`,
    `-k ${socketDirectory}`,
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');

interface ClusterPaths {
  readonly directory: string;
  readonly data: string;
  readonly logFile: string;
}

const createDirectory = (user: ServerUser): ClusterPaths => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-postgres-'));
  chmodSync(directory, 0o700);
  if (user.owner !== undefined) chownSync(directory, user.owner.uid, user.owner.gid);
  return { directory, data: join(directory, 'data'), logFile: join(directory, 'server.log') };
};

const startServer = async (
  binaries: PostgresBinaries,
  user: ServerUser,
  paths: ClusterPaths,
  options: string,
): Promise<void> =>
  run(user, 'pg_ctl start', binaries.pgCtl, [
    '-D',
    paths.data,
    '-l',
    paths.logFile,
    '-w',
    '-t',
    '60',
    '-o',
    options,
    'start',
  ]);

/**
 * initdb into a fresh temp directory (owned by the `postgres` OS user when running as root, since
 * the server refuses to run as root), start it on a free loopback port, and hand back its URL.
 * Missing binaries are installed from Debian's `postgresql` package first.
 */
export const startThrowawayCluster = async (options: ThrowawayClusterOptions = {}): Promise<ThrowawayCluster> => {
  const log = options.log ?? (() => undefined);
  const binaries = await ensurePostgresBinaries(log);
  const user = await serverUser();
  const paths = createDirectory(user);
  const settings = { ...defaultSettings, ...options.settings };
  try {
    // -N skips initdb's own final fsync of the template files (a throwaway cluster); the server's
    // fsync and synchronous_commit stay on, so measured commits are durable ones.
    await run(user, 'initdb', binaries.initdb, [
      '-D',
      paths.data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '-N',
    ]);
    const port = await freeLoopbackPort();
    const serverArgs = serverOptions(port, paths.directory, settings);
    await startServer(binaries, user, paths, serverArgs);
    log(`PostgreSQL test server: ${binaries.directory} on 127.0.0.1:${port}, data in ${paths.data}`);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      directory: paths.directory,
      restart: () =>
        run(user, 'pg_ctl restart', binaries.pgCtl, [
          '-D',
          paths.data,
          '-l',
          paths.logFile,
          '-w',
          '-t',
          '60',
          '-m',
          'fast',
          '-o',
          serverArgs,
          'restart',
        ]),
      halt: () =>
        run(user, 'pg_ctl stop', binaries.pgCtl, ['-D', paths.data, '-w', '-t', '60', '-m', 'immediate', 'stop']),
      start: () => startServer(binaries, user, paths, serverArgs),
      stop: async () => {
        await run(user, 'pg_ctl stop', binaries.pgCtl, [
          '-D',
          paths.data,
          '-w',
          '-t',
          '60',
          '-m',
          'fast',
          'stop',
        ]).catch(() => undefined);
        rmSync(paths.directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await run(user, 'pg_ctl stop', binaries.pgCtl, ['-D', paths.data, '-m', 'immediate', 'stop']).catch(
      () => undefined,
    );
    rmSync(paths.directory, { recursive: true, force: true });
    throw error;
  }
};
