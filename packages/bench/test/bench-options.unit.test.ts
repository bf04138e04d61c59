import { isLeft, isRight } from 'fp-ts/Either';
import { type BenchOptions, type InvalidBenchOption, parseBenchOptions, parseSize } from '../src/bench-options';

const parsed = (...args: string[]): BenchOptions => {
  const result = parseBenchOptions(args);
  if (isLeft(result)) throw result.left;
  return result.right;
};

const refusal = (...args: string[]): InvalidBenchOption => {
  const result = parseBenchOptions(args);
  if (isRight(result)) throw new Error(`expected ${args.join(' ')} to be refused`);
  return result.left;
};

describe('bench options', () => {
  it('runs every section at full size by default, profiling misses', () => {
    expect(parsed()).toMatchObject({
      quick: false,
      sections: ['replay', 'send', 'rss', 'postgres', 'follow', 'dashboard', 'fuzz'],
      events: 1_000_000,
      messages: 4096,
      senders: [1, 64],
      rssBytes: 1024 ** 3,
      rssReplay: true,
      profile: true,
      profileEvents: 200_000,
    });
  });

  it('pairs each paired replay row 3 times by default, 2 with --quick, and as --replay-pairs says', () => {
    expect(parsed().replayPairs).toBe(3);
    expect(parsed('--quick').replayPairs).toBe(2);
    expect(parsed('--replay-pairs', '5', '--quick').replayPairs).toBe(5);
    expect(refusal('--replay-pairs', '0').option).toBe('--replay-pairs');
  });

  it('skips the PostgreSQL section with --no-postgres', () => {
    expect(parsed('--no-postgres').sections).toEqual(['replay', 'send', 'rss', 'follow', 'dashboard', 'fuzz']);
    expect(parsed('--only', 'send,postgres', '--no-postgres').sections).toEqual(['send']);
  });

  it('uses small sizes with --quick, which later flags override wherever they stand', () => {
    expect(parsed('--quick')).toMatchObject({
      quick: true,
      events: 20_000,
      messages: 256,
      rssBytes: 32 * 1024 ** 2,
      profile: false,
    });
    expect(parsed('--events', '5000', '--quick', '--profile')).toMatchObject({
      quick: true,
      events: 5000,
      profile: true,
    });
  });

  it('reads sizes, lists and flags, with or without "="', () => {
    expect(
      parsed(
        '--only=send,rss',
        '--senders',
        '2,8',
        '--send-members',
        '8',
        '--rss-bytes',
        '256M',
        '--no-rss-replay',
        '--events',
        '1_000',
      ),
    ).toMatchObject({
      sections: ['send', 'rss'],
      senders: [2, 8],
      sendMembers: 8,
      rssBytes: 256 * 1024 ** 2,
      rssReplay: false,
      events: 1000,
    });
    expect(parsed('--help').help).toBe(true);
  });

  it('profiles on a corpus no larger than the measured one', () => {
    expect(parsed('--events', '50000').profileEvents).toBe(50_000);
    expect(parsed('--profile-events', '1000').profileEvents).toBe(1000);
  });

  it('understands sizes with K, M and G suffixes', () => {
    expect(parseSize('1G')).toBe(1024 ** 3);
    expect(parseSize('1.5MiB')).toBe(1.5 * 1024 ** 2);
    expect(parseSize('4096')).toBe(4096);
    expect(parseSize('lots')).toBeUndefined();
    expect(parseSize('0')).toBeUndefined();
  });

  it('refuses unknown options and bad values, naming the option', () => {
    expect(refusal('--fast').option).toBe('--fast');
    expect(refusal('--events', 'many').message).toBe('--events: expects a positive integer, got many');
    expect(refusal('--events').message).toBe('--events: expects a positive integer, got nothing');
    expect(refusal('--only', 'replay,disk').option).toBe('--only');
    expect(refusal('--rss-bytes', 'big').option).toBe('--rss-bytes');
  });

  it('refuses more senders than the send team has members', () => {
    expect(refusal('--senders', '1,64', '--send-members', '32').option).toBe('--send-members');
  });
});
