import type { CliIo } from './cli-io';
import { type Progress, silentProgress } from './progress-bar';

/**
 * A bar on stderr when stderr is a terminal; silent otherwise (pipes, files, CI logs), and then
 * cli-progress is never loaded.
 */
export const progressFor = async (io: CliIo, title: string): Promise<Progress> =>
  io.stderrIsTerminal
    ? new (await import('./terminal-progress-bar')).TerminalProgressBar(io.stderr, title, io.stderrColumns)
    : silentProgress;
