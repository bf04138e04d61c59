import type { PrefetchedLog } from '../src/log-prefetch';
import { type FoundLog, prefetchedLogs } from '../src/prefetched-logs';
import type { DiscoveredLog, UnreadableDirectory } from '../src/session-file-discovery';

const logOf = (file: string): DiscoveredLog => ({
  file,
  directory: '/root',
  stem: file,
  generation: 0,
  compression: 'none',
  olderGenerations: [],
});

/** A prefetch that records what it was asked for and what was released, and resolves `asked(file)` when asked. */
const recordingPrefetch = () => {
  const asked: string[] = [];
  const released: string[] = [];
  const waiting = new Map<string, () => void>();
  const prefetch = (file: string): PrefetchedLog => {
    asked.push(file);
    waiting.get(file)?.();
    const never = new Promise<never>(() => undefined);
    return {
      file,
      reader: never,
      size: never,
      opened: never,
      release: async () => {
        released.push(file);
      },
    };
  };
  const askedFor = (file: string): Promise<void> =>
    asked.includes(file) ? Promise.resolve() : new Promise((resolve) => waiting.set(file, resolve));
  return { asked, released, prefetch, askedFor };
};

const describeFound = (found: FoundLog): string =>
  found.kind === 'log' ? `log ${found.log.file}` : `unreadable ${found.unreadable.directory}`;

describe('the logs of a walk, one ahead', () => {
  it('asks for the next log while the current one is handed out, and no further', async () => {
    const { asked, prefetch, askedFor } = recordingPrefetch();
    async function* walk(): AsyncGenerator<DiscoveredLog> {
      yield logOf('a');
      yield logOf('b');
      yield logOf('c');
    }
    const logs = prefetchedLogs(walk, prefetch);
    const first = await logs.next();
    expect(first.value).toMatchObject({ kind: 'log', log: { file: 'a' } });
    // The consumer holds "a" and has not asked for more: "b" is asked for meanwhile.
    await askedFor('b');
    expect(asked).toEqual(['a', 'b']);
    await logs.return(undefined);
  });

  it('hands on the logs and the directories it could not list in the order of the walk', async () => {
    const { prefetch } = recordingPrefetch();
    const walk = async function* (onUnreadable: (unreadable: UnreadableDirectory) => void) {
      yield logOf('a');
      onUnreadable({ directory: 'x', error: new Error('EACCES') });
      onUnreadable({ directory: 'y', error: new Error('EACCES') });
      yield logOf('b');
      onUnreadable({ directory: 'z', error: new Error('EACCES') });
    };
    const found: string[] = [];
    for await (const each of prefetchedLogs(walk, prefetch)) found.push(describeFound(each));
    expect(found).toEqual(['log a', 'unreadable x', 'unreadable y', 'log b', 'unreadable z']);
  });

  it('releases the log asked for ahead when the consumer stops early', async () => {
    const { released, prefetch, askedFor } = recordingPrefetch();
    let closed = false;
    async function* walk(): AsyncGenerator<DiscoveredLog> {
      try {
        yield logOf('a');
        yield logOf('b');
        yield logOf('c');
      } finally {
        closed = true;
      }
    }
    for await (const found of prefetchedLogs(walk, prefetch)) {
      expect(describeFound(found)).toBe('log a');
      await askedFor('b');
      break;
    }
    expect(released).toEqual(['b']);
    expect(closed).toBe(true);
  });

  it('fails the consumer when the walk fails, after the logs before it', async () => {
    const { prefetch } = recordingPrefetch();
    async function* walk(): AsyncGenerator<DiscoveredLog> {
      yield logOf('a');
      throw new Error('the root went away');
    }
    const found: string[] = [];
    await expect(
      (async () => {
        for await (const each of prefetchedLogs(walk, prefetch)) found.push(describeFound(each));
      })(),
    ).rejects.toThrow('the root went away');
    expect(found).toEqual(['log a']);
  });
});
