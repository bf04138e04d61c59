import { runProgram, tailOf } from '@teamlog/postgres-testing';

/** Why a Debian package could not be installed: the step that failed and what it said. */
export class DebianInstallFailed extends Error {
  override readonly name = 'DebianInstallFailed';
  constructor(
    readonly step: string,
    readonly detail: string,
  ) {
    super(`${step}: ${detail}`);
  }
}

/** How to run apt-get here: directly as root, through passwordless sudo otherwise; undefined when neither works. */
const aptGetCommand = async (): Promise<readonly string[] | undefined> => {
  if (process.getuid?.() === 0) return ['apt-get'];
  const sudo = await runProgram('sudo', ['-n', 'true']);
  return sudo.code === 0 ? ['sudo', '-n', 'apt-get'] : undefined;
};

/** `apt-get update`, then `apt-get install` of one package without recommends; throws DebianInstallFailed saying what failed. */
export const installDebianPackage = async (name: string, log: (line: string) => void): Promise<void> => {
  const aptGet = await aptGetCommand();
  if (aptGet === undefined)
    throw new DebianInstallFailed(
      `installing ${name}`,
      'apt-get needs root, and this user is not root and has no passwordless sudo',
    );
  const [command, ...prefix] = aptGet as [string, ...string[]];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', name]]) {
    log(`apt-get ${args.join(' ')}`);
    const result = await runProgram(command, [...prefix, ...args], env);
    if (result.code !== 0)
      throw new DebianInstallFailed(
        `apt-get ${args.join(' ')}`,
        `exit ${result.code ?? 'not started'}: ${tailOf(result.output)}`,
      );
  }
};
