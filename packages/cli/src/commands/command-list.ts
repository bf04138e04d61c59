import type { Command } from '../command';
import { auditCommand } from './audit-command';
import { demoCommand } from './demo-command';
import { exportCommand } from './export-command';
import { importCommand } from './import-command';
import { inboxCommand } from './inbox-command';
import { legacyCommand } from './legacy-command';
import { mcpCommand } from './mcp-command';
import { migrateCommand } from './migrate-command';
import { replayCommand } from './replay-command';
import { rosterCommand } from './roster-command';
import { serveCommand } from './serve-command';
import { sessionsCommand } from './sessions-command';
import { tasksCommand } from './tasks-command';
import { teamCommand } from './team-command';
import { watchCommand } from './watch-command';

/** Every command, in the order `teamlog --help` lists them. */
export const commandList: readonly Command[] = [
  replayCommand,
  importCommand,
  rosterCommand,
  tasksCommand,
  inboxCommand,
  legacyCommand,
  auditCommand,
  exportCommand,
  demoCommand,
  teamCommand,
  sessionsCommand,
  watchCommand,
  serveCommand,
  mcpCommand,
  migrateCommand,
];
