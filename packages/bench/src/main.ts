import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isLeft } from 'fp-ts/Either';
import { type BenchOptions, type BenchSection, benchUsage, parseBenchOptions } from './bench-options';
import { machineDescription } from './machine-description';
import { profileChild, renderProfileSummary } from './profile-run';
import { renderTable, type ReportRow } from './report-table';
import { runReplaySection } from './replay-section';
import { runRssSection } from './rss-section';
import type { SectionContext, SectionOutcome } from './section-outcome';
import { runPostgresSection } from './postgres-section';
import { runDashboardSection } from './dashboard-section';
import { runFuzzSection } from './fuzz-section';
import { runSendSection } from './send-section';
import { runFollowSection } from './follow-section';
import { sourceRevision } from './source-revision';
import { benchChildDescription, benchChildScript } from './run-child';

/* `npm run bench`: generated inputs in a temp directory (removed after), one child process per measurement. */

const sectionRunners: Record<
  BenchSection,
  (options: BenchOptions, workDirectory: string, context: SectionContext) => Promise<SectionOutcome>
> = {
  replay: runReplaySection,
  send: runSendSection,
  rss: runRssSection,
  postgres: runPostgresSection,
  follow: runFollowSection,
  dashboard: runDashboardSection,
  fuzz: runFuzzSection,
};

const sizesLine = (options: BenchOptions): string =>
  `sizes: corpus ${options.events.toLocaleString('en-US')} events (${options.teams} teams x ${options.membersPerTeam} members), ` +
  `${options.messages} messages per send case (senders ${options.senders.join(', ')}; ${options.sendMembers} members), ` +
  `large log ${(options.rssBytes / 1024 ** 2).toFixed(0)} MiB${options.rssReplay ? ' (read and replayed)' : ' (read)'}, ` +
  `follow ${options.followLines} lines and ${options.followFiles} idle logs (${(options.followIdleMs / 1000).toFixed(0)} s)`;

const run = async (options: BenchOptions, workDirectory: string): Promise<void> => {
  const started = performance.now();
  const progress = (text: string): void => {
    process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);
  };
  let profiles = 0;
  const context: SectionContext = {
    progress,
    profiling: options.profile,
    profile: async (title, request) => {
      if (!options.profile) return [];
      progress(`profiling: ${title}`);
      profiles += 1;
      return renderProfileSummary(
        `CPU profile: ${title}`,
        await profileChild(request, join(workDirectory, `profile-${profiles}`)),
      );
    },
  };
  const rows: ReportRow[] = [];
  const notes: string[] = [];
  const summaries: string[] = [];
  for (const section of options.sections) {
    const outcome = await sectionRunners[section](options, workDirectory, context);
    rows.push(...outcome.rows);
    notes.push(...outcome.notes);
    summaries.push(...outcome.profiles);
  }
  const lines = [
    '',
    `teamlog bench, ${new Date().toISOString()}${options.quick ? ' (quick)' : ''}`,
    `machine: ${machineDescription()}`,
    `source: ${sourceRevision(__dirname) ?? 'not a git checkout'}`,
    `children run: ${benchChildDescription}`,
    sizesLine(options),
    '',
    renderTable(rows),
    '',
    'details:',
    ...notes.map((note) => `  - ${note}`),
    ...(summaries.length === 0 ? [] : ['', ...summaries]),
    '',
    `total bench time ${((performance.now() - started) / 1000).toFixed(0)} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
};

const main = async (): Promise<number> => {
  const parsed = parseBenchOptions(process.argv.slice(2));
  if (isLeft(parsed)) {
    process.stderr.write(`${parsed.left.message}\n\n${benchUsage}\n`);
    return 2;
  }
  if (parsed.right.help) {
    process.stdout.write(`${benchUsage}\n`);
    return 0;
  }
  if (!existsSync(benchChildScript)) {
    process.stderr.write(`the bench's child ${benchChildScript} is missing: run \`npm run build\` first\n`);
    return 2;
  }
  const workDirectory = mkdtempSync(join(tmpdir(), 'teamlog-bench-'));
  const cleanUp = (): void => rmSync(workDirectory, { recursive: true, force: true });
  const interrupted = (): void => {
    cleanUp();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await run(parsed.right, workDirectory);
    return 0;
  } finally {
    cleanUp();
  }
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
