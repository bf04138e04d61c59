import { type Either, left, right } from 'fp-ts/Either';

export type BenchSection = 'replay' | 'send' | 'rss' | 'postgres' | 'follow' | 'dashboard' | 'fuzz';
export const benchSections: readonly BenchSection[] = [
  'replay',
  'send',
  'rss',
  'postgres',
  'follow',
  'dashboard',
  'fuzz',
];

export interface BenchOptions {
  readonly quick: boolean;
  readonly sections: readonly BenchSection[];
  /** Events of the generated corpus (all logs together). */
  readonly events: number;
  readonly teams: number;
  readonly membersPerTeam: number;
  /** Messages sent in each send case. */
  readonly messages: number;
  readonly senders: readonly number[];
  /** Members of the send team (each sender is one of them). */
  readonly sendMembers: number;
  /** Uncompressed size of the large log the RSS case reads. */
  readonly rssBytes: number;
  /** Also import the large log into SQLite and build its views (minutes per GB); --no-rss-replay skips it. */
  readonly rssReplay: boolean;
  /** Re-run each case that misses its target under `node --cpu-prof` and summarise the profile. */
  readonly profile: boolean;
  /** Events of the V0 Lead log `teamlog replay FILE --store :memory: --json` replays (the CLI case). */
  readonly cliReplayEvents: number;
  /**
   * Back-to-back pairs of a replay run and a JSON.parse baseline run behind each paired replay row
   * (the bench's in-memory replay, the CLI's `:memory:` replays).
   */
  readonly replayPairs: number;
  /** Events of the (smaller) corpus the replay profiles run on, so profiling does not double the run time. */
  readonly profileEvents: number;
  /** Lines the follow case writes one at a time, timing each to the dashboard's change event. */
  readonly followLines: number;
  /** Session logs in the idle root the watcher's idle CPU is measured on. */
  readonly followFiles: number;
  /** How long the watcher's CPU is measured while nothing changes (ms). */
  readonly followIdleMs: number;
  readonly help: boolean;
}

export class InvalidBenchOption extends Error {
  override readonly name = 'InvalidBenchOption';
  constructor(
    readonly option: string,
    detail: string,
  ) {
    super(`${option}: ${detail}`);
  }
}

const fullDefaults: Omit<BenchOptions, 'help'> = {
  quick: false,
  sections: benchSections,
  events: 1_000_000,
  teams: 4,
  membersPerTeam: 8,
  messages: 4096,
  senders: [1, 64],
  sendMembers: 64,
  rssBytes: 1024 ** 3,
  rssReplay: true,
  cliReplayEvents: 500_000,
  replayPairs: 3,
  profile: true,
  profileEvents: 200_000,
  followLines: 1000,
  followFiles: 2000,
  followIdleMs: 65_000,
};

const quickDefaults: Omit<BenchOptions, 'help'> = {
  ...fullDefaults,
  quick: true,
  events: 20_000,
  messages: 256,
  rssBytes: 32 * 1024 ** 2,
  cliReplayEvents: 20_000,
  replayPairs: 2,
  profile: false,
  profileEvents: 20_000,
  followLines: 100,
  followFiles: 200,
  followIdleMs: 5000,
};

export const benchUsage = `npm run bench -- [options]

  --quick              small sizes for a smoke run (20k events, 256 messages, 32 MiB log, 100 follow lines, 200 fuzz cases, 2 replay pairs, no profiles)
  --only <list>        sections to run, comma-separated: replay,send,rss,postgres,follow,dashboard,fuzz (default: all)
  --no-postgres        skip the PostgreSQL section (it starts a throwaway cluster unless TEAMLOG_POSTGRES_URL is set)
  --events <n>         events in the generated corpus (default 1000000)
  --teams <n>          teams in the corpus (default 4)
  --members <n>        members per team in the corpus (default 8)
  --messages <n>       messages per send case (default 4096)
  --senders <list>     concurrent senders per send case, comma-separated (default 1,64)
  --send-members <n>   members of the send team (default 64; at least the largest sender count)
  --rss-bytes <size>   size of the large log, e.g. 1G, 256M (default 1G)
  --cli-replay-events <n>  events of the V0 Lead log the CLI replay case replays (default 500000)
  --replay-pairs <n>   back-to-back pairs (replay run, JSON.parse run) behind each paired replay row (default 3)
  --no-rss-replay      only read the large log; skip importing it into SQLite with its views (minutes per GB)
  --profile            profile the cases that miss their target (default in a full run)
  --no-profile         do not profile
  --profile-events <n> events of the corpus the replay profiles run on (default 200000; at most --events)
  --follow-lines <n>   lines the follow case writes and times to the dashboard (default 1000)
  --follow-files <n>   session logs in the root the idle CPU of the watcher is measured on (default 2000)
  --follow-idle <s>    seconds the idle CPU is measured over (default 65: a full rescan period of the watcher)
  --help               this text

Other options override the sizes --quick sets, wherever they stand.`;

const sizeUnits: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `1G`, `256M`, `64K` or a plain byte count. */
export const parseSize = (text: string): number | undefined => {
  const match = /^(\d+(?:\.\d+)?)([KMG]?)i?B?$/i.exec(text.trim());
  if (match === null) return undefined;
  const bytes = Number(match[1]) * (sizeUnits[(match[2] as string).toUpperCase()] as number);
  return Number.isFinite(bytes) && bytes > 0 ? Math.round(bytes) : undefined;
};

const positiveInteger = (option: string, text: string | undefined): number => {
  const value = Number((text ?? '').replace(/_/g, ''));
  if (text === undefined || !Number.isSafeInteger(value) || value <= 0)
    throw new InvalidBenchOption(option, `expects a positive integer, got ${text ?? 'nothing'}`);
  return value;
};

const integerList = (option: string, text: string | undefined): number[] =>
  (text ?? '').split(',').map((part) => positiveInteger(option, part === '' ? undefined : part));

const sectionList = (text: string | undefined): BenchSection[] =>
  (text ?? '').split(',').map((part) => {
    const section = benchSections.find((name) => name === part);
    if (section === undefined)
      throw new InvalidBenchOption(
        '--only',
        `expects sections among ${benchSections.join(', ')}, got ${part === '' ? 'nothing' : part}`,
      );
    return section;
  });

type Setter = (options: Omit<BenchOptions, 'help'>, value: string | undefined) => Omit<BenchOptions, 'help'>;

const valued: Record<string, Setter> = {
  '--only': (options, value) => ({ ...options, sections: sectionList(value) }),
  '--events': (options, value) => ({ ...options, events: positiveInteger('--events', value) }),
  '--teams': (options, value) => ({ ...options, teams: positiveInteger('--teams', value) }),
  '--members': (options, value) => ({ ...options, membersPerTeam: Math.max(2, positiveInteger('--members', value)) }),
  '--messages': (options, value) => ({ ...options, messages: positiveInteger('--messages', value) }),
  '--senders': (options, value) => ({ ...options, senders: integerList('--senders', value) }),
  '--send-members': (options, value) => ({ ...options, sendMembers: positiveInteger('--send-members', value) }),
  '--profile-events': (options, value) => ({ ...options, profileEvents: positiveInteger('--profile-events', value) }),
  '--cli-replay-events': (options, value) => ({
    ...options,
    cliReplayEvents: positiveInteger('--cli-replay-events', value),
  }),
  '--replay-pairs': (options, value) => ({ ...options, replayPairs: positiveInteger('--replay-pairs', value) }),
  '--follow-lines': (options, value) => ({ ...options, followLines: positiveInteger('--follow-lines', value) }),
  '--follow-files': (options, value) => ({ ...options, followFiles: positiveInteger('--follow-files', value) }),
  '--follow-idle': (options, value) => ({ ...options, followIdleMs: positiveInteger('--follow-idle', value) * 1000 }),
  '--rss-bytes': (options, value) => {
    const bytes = value === undefined ? undefined : parseSize(value);
    if (bytes === undefined)
      throw new InvalidBenchOption('--rss-bytes', `expects a size such as 1G or 256M, got ${value ?? 'nothing'}`);
    return { ...options, rssBytes: bytes };
  },
};

const flags: Record<string, Setter> = {
  '--rss-replay': (options) => ({ ...options, rssReplay: true }),
  '--no-rss-replay': (options) => ({ ...options, rssReplay: false }),
  '--profile': (options) => ({ ...options, profile: true }),
  '--no-profile': (options) => ({ ...options, profile: false }),
  '--no-postgres': (options) => ({
    ...options,
    sections: options.sections.filter((section) => section !== 'postgres'),
  }),
};

/** Parse the bench's arguments (after `npm run bench --`). `--quick` sets the defaults the other flags then override. */
export const parseBenchOptions = (args: readonly string[]): Either<InvalidBenchOption, BenchOptions> => {
  try {
    let options = args.includes('--quick') ? quickDefaults : fullDefaults;
    let help = false;
    for (let index = 0; index < args.length; index += 1) {
      const [name, inline] = (args[index] as string).split(/=(.*)/s, 2) as [string, string | undefined];
      if (name === '--quick') continue;
      if (name === '--help' || name === '-h') {
        help = true;
        continue;
      }
      const flag = flags[name];
      if (flag !== undefined) {
        options = flag(options, undefined);
        continue;
      }
      const setter = valued[name];
      if (setter === undefined) throw new InvalidBenchOption(name, 'is not a bench option (see --help)');
      const value = inline ?? args[(index += 1)];
      options = setter(options, value);
    }
    const largest = Math.max(...options.senders);
    if (options.sendMembers < Math.max(2, largest))
      throw new InvalidBenchOption(
        '--send-members',
        `must be at least the largest sender count (${largest}) and 2, got ${options.sendMembers}`,
      );
    return right({ ...options, profileEvents: Math.min(options.profileEvents, options.events), help });
  } catch (error) {
    if (error instanceof InvalidBenchOption) return left(error);
    throw error;
  }
};
