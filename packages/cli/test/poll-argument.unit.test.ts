import { defaultPollArgumentMs, pollArgument, withBarePoll } from '../src/poll-argument';

describe('--poll[=MS]', () => {
  it('gives a bare --poll the default interval, before any --', () => {
    expect(withBarePoll(['root', '--poll', '--store', 'x.db'])).toEqual([
      'root',
      `--poll=${defaultPollArgumentMs}`,
      '--store',
      'x.db',
    ]);
    expect(withBarePoll(['--poll=250', 'root'])).toEqual(['--poll=250', 'root']);
    expect(withBarePoll(['--', '--poll'])).toEqual(['--', '--poll']);
  });

  it('reads the interval in milliseconds, undefined without the flag', () => {
    expect(pollArgument(undefined, 'watch')).toBeUndefined();
    expect(pollArgument('250', 'watch')).toBe(250);
  });

  it('refuses an interval that is not a whole number of milliseconds from 1 to an hour', () => {
    for (const text of ['0', '-5', '1.5', 'fast', '3600001']) {
      expect(() => pollArgument(text, 'watch')).toThrow(expect.objectContaining({ code: 'UsageError' }));
    }
    expect(() => pollArgument('fast', 'watch')).toThrow(
      'watch: --poll expects a number of milliseconds from 1 to 3600000 (--poll=500), got "fast"',
    );
  });
});
