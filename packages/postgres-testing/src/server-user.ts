import { PostgresSetupFailed } from './postgres-setup-failed';
import { runProgram } from './run-program';

/** The OS account the server runs as: the server refuses to run as root. */
export interface ServerUser {
  /** Turn a command into one that runs as that account. */
  readonly wrap: (
    command: string,
    args: readonly string[],
  ) => { readonly command: string; readonly args: readonly string[] };
  /** uid and gid to own the cluster's directory, or undefined when that is the current user. */
  readonly owner: { readonly uid: number; readonly gid: number } | undefined;
}

const currentUser: ServerUser = { wrap: (command, args) => ({ command, args }), owner: undefined };

const idOf = async (flag: '-u' | '-g', user: string): Promise<number> => {
  const result = await runProgram('id', [flag, user]);
  const value = Number(result.output.trim());
  if (result.code !== 0 || !Number.isInteger(value))
    throw new PostgresSetupFailed(
      `looking up the ${user} OS user`,
      result.output.trim() || `id ${flag} ${user} failed`,
    );
  return value;
};

/** As root: the `postgres` account through `runuser`; otherwise the current user. */
export const serverUser = async (user = 'postgres'): Promise<ServerUser> => {
  if (process.getuid?.() !== 0) return currentUser;
  const owner = { uid: await idOf('-u', user), gid: await idOf('-g', user) };
  return { wrap: (command, args) => ({ command: 'runuser', args: ['-u', user, '--', command, ...args] }), owner };
};
