import type { CliIo } from './cli-io';
import { type Progress, TerminalProgressBar, silentProgress } from './progress-bar';

/** A bar on stderr when stderr is a terminal; silent otherwise (pipes, files, CI logs). */
export const progressFor = (io: CliIo, title: string): Progress =>
  io.stderrIsTerminal ? new TerminalProgressBar(io.stderr, title, io.stderrColumns) : silentProgress;
