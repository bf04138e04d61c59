import type { Command } from './command';

/**
 * A command known by its name whose module is loaded when it runs or its help is printed: a
 * process runs one command, so it loads that command's code and its dependencies only (the
 * dashboard, the team engine or the SQLite binding stay unloaded for `replay --store :memory:`).
 */
export interface LazyCommand {
  readonly name: string;
  readonly load: () => Promise<Command>;
}

/** What `runCli` dispatches on: a command already loaded, or one loaded on first use. */
export type CommandEntry = Command | LazyCommand;

export const loadCommand = async (entry: CommandEntry): Promise<Command> => {
  if (!('load' in entry)) return entry;
  const command = await entry.load();
  if (command.name !== entry.name) throw new Error(`command "${entry.name}" loaded as "${command.name}"`);
  return command;
};
