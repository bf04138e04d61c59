import type { LazyCommand } from '../lazy-command';

/**
 * Every command, in the order `teamlog --help` lists them (as commandList), each module imported
 * only when its command runs: the CLI's entry point dispatches on this, so a command loads none
 * of the others' dependencies (docs/benchmarks.md, _Start-up_).
 */
export const commandRegistry: readonly LazyCommand[] = [
  { name: 'replay', load: async () => (await import('./replay-command')).replayCommand },
  { name: 'import', load: async () => (await import('./import-command')).importCommand },
  { name: 'roster', load: async () => (await import('./roster-command')).rosterCommand },
  { name: 'tasks', load: async () => (await import('./tasks-command')).tasksCommand },
  { name: 'inbox', load: async () => (await import('./inbox-command')).inboxCommand },
  { name: 'legacy', load: async () => (await import('./legacy-command')).legacyCommand },
  { name: 'audit', load: async () => (await import('./audit-command')).auditCommand },
  { name: 'export', load: async () => (await import('./export-command')).exportCommand },
  { name: 'demo', load: async () => (await import('./demo-command')).demoCommand },
  { name: 'team', load: async () => (await import('./team-command')).teamCommand },
  { name: 'sessions', load: async () => (await import('./sessions-command')).sessionsCommand },
  { name: 'watch', load: async () => (await import('./watch-command')).watchCommand },
  { name: 'serve', load: async () => (await import('./serve-command')).serveCommand },
  { name: 'mcp', load: async () => (await import('./mcp-command')).mcpCommand },
  { name: 'migrate', load: async () => (await import('./migrate-command')).migrateCommand },
];
