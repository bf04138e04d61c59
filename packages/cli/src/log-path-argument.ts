import { promises as fs } from 'node:fs';
import { badInput, type BadInput, isCliError } from './cli-errors';

/** A path named on the command line that can be read: a file, or a directory to search. */
export interface UsablePath {
  readonly path: string;
  readonly isFile: boolean;
}

const why = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return `cannot read it (${code ?? (error as Error).message})`;
};

/**
 * A regular file that can be opened may still fail its first read (`/proc/self/mem`, a file on a
 * broken disk): one byte is read here, so such a path is bad input before any store exists.
 */
const readFirstByte = async (path: string): Promise<void> => {
  const handle = await fs.open(path, 'r');
  try {
    await handle.read(Buffer.alloc(1), 0, 1, 0);
  } finally {
    await handle.close();
  }
};

/**
 * Whether a log path named on the command line (`replay`, `import`, `watch`, `serve --follow`) can
 * be read: a regular file whose first byte reads, or a directory that lists. Anything else (a FIFO,
 * a device, a socket) is bad input in one line. Every command checks its paths with this before it
 * opens a store, so a bad path never creates one.
 */
export const checkLogPath = async (path: string): Promise<UsablePath | BadInput> => {
  try {
    const stats = await fs.stat(path);
    if (stats.isFile()) {
      await readFirstByte(path);
      return { path, isFile: true };
    }
    if (!stats.isDirectory())
      return badInput('not a regular file or directory (a FIFO, device or socket is never read as a log)', {
        file: path,
      });
    await fs.readdir(path);
    return { path, isFile: false };
  } catch (error) {
    return badInput(why(error), { file: path });
  }
};

/** The one log path a follower needs (`watch ROOT`, `serve --follow ROOT`): usable, or thrown as bad input. */
export const requireLogPath = async (path: string): Promise<UsablePath> => {
  const checked = await checkLogPath(path);
  if (isCliError(checked, 'BadInput')) throw checked;
  return checked;
};
