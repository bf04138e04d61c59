import { execFileSync } from 'node:child_process';

/** The checkout's commit (short hash, `+dirty` with local changes), or undefined outside a git work tree. */
export const sourceRevision = (directory: string): string | undefined => {
  try {
    const run = (args: string[]): string =>
      execFileSync('git', args, { cwd: directory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = run(['rev-parse', '--short', 'HEAD']);
    return run(['status', '--porcelain', '--untracked-files=no']) === '' ? commit : `${commit}+dirty`;
  } catch {
    return undefined;
  }
};
