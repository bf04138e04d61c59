import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { type StoredLink, sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { importSessionLogs } from '../src';
import { append, follow, stopFollowers, streamLength } from './follow-support';
import { type TempStore, openTempStore } from './real-logs';

/* A followed log's events are stored as their lines hold their data, as a one-shot import stores them (docs/rules.md#stored-data-bytes). */

jest.setTimeout(90_000);

const headerOf = (version: number): string =>
  `{"type":"session","version":${version},"id":"followed-bytes","createdAt":1791190800000,"cwd":"/w","isSeeded":false,"delegationDepth":0}`;
/** Lines no JSON.stringify writes: spacing, escapes, number spellings, data before seq. */
const eventLine = (seq: number, generation: number): string =>
  seq % 2 === 0
    ? `{"type":"x/unknown","seq":${seq},"time":${1791190800100 + seq},"data":{ "n" : 1.50, "seq":${seq}, "v":${generation} }}`
    : `{"data":{"note":"caf\\u00e9 \\/ ok","big":12345678901234567890},"type":"x/unknown","seq":${seq},"time":${1791190800100 + seq + generation}}`;
const linesFrom = (first: number, count: number, generation = 4): string =>
  Array.from({ length: count }, (_, index) => `${eventLine(first + index, generation)}\n`).join('');

type Link = Pick<StoredLink, 'revision' | 'data' | 'digest'>;

const linksOf = async (store: SqliteEventStore, stream: string): Promise<Link[]> => {
  const links: Link[] = [];
  for await (const { streamName, revision, data, digest } of store.readStoredLinks())
    if (streamName === stream) links.push({ revision, data, digest });
  return links;
};

/** The stored text and digests of a one-shot import of the root's final files into a new store. */
const oneShotLinks = async (root: string, file: string, stream: string): Promise<Link[]> => {
  const store = SqliteEventStore.open(file);
  try {
    await importSessionLogs(root, store);
    return await linksOf(store, stream);
  } finally {
    await store.close();
  }
};

const stream = sessionStream('followed-bytes' as SessionId);
let temp: TempStore;
let root: string;
beforeEach(async () => {
  temp = await openTempStore();
  root = join(temp.directory, 'sessions');
});
afterEach(async () => {
  await stopFollowers();
  await temp.dispose();
});

describe('a followed log stores the bytes of its lines', () => {
  it('stores the lines read from its growing tail with the text and digests a one-shot replay stores', async () => {
    const file = join(root, 'followed-bytes', 'session.v4.jsonl');
    await append(file, `${headerOf(4)}\n${linesFrom(0, 2)}`);
    const following = await follow(root, temp.store);
    try {
      await following.until('the first lines are stored', async () => (await streamLength(temp.store, stream)) === 2);
      // The first growth is read whole again; the tail is read from the next one on.
      await append(file, linesFrom(2, 2));
      await following.until('the file is read again', async () => (await streamLength(temp.store, stream)) === 4);
      await append(file, linesFrom(4, 3));
      await following.until('the tail is stored', async () => (await streamLength(temp.store, stream)) === 7);
      expect(following.batches.flatMap((batch) => batch.warnings)).toEqual([]);
    } finally {
      await following.follower.stop();
    }
    const followed = await linksOf(temp.store, stream);
    expect(followed.map((link) => link.data)).toContain('{ "n" : 1.50, "seq":4, "v":4 }');
    expect(followed).toEqual(await oneShotLinks(root, join(temp.directory, 'one-shot.sqlite'), stream));
  });

  it('stores a superseding generation with the text its lines hold', async () => {
    const directory = join(root, 'followed-bytes');
    await append(join(directory, 'session.v3.jsonl'), `${headerOf(3)}\n${linesFrom(0, 3, 3)}`);
    const following = await follow(root, temp.store);
    try {
      await following.until('the V3 log is stored', async () => (await streamLength(temp.store, stream)) === 3);
      // A V4 whose events differ from the stored ones (as a renumbering makes them): they do not line up.
      await append(join(directory, 'session.v4.jsonl'), `${headerOf(4)}\n${linesFrom(0, 5)}`);
      await following.until(
        'the V4 log is stored after the supersession record',
        async () => (await streamLength(temp.store, stream)) === 3 + 1 + 5,
      );
      expect(following.batches.flatMap((batch) => batch.warnings)).toEqual([]);
    } finally {
      await following.follower.stop();
    }
    const later = (await linksOf(temp.store, stream)).slice(4).map((link) => link.data);
    const oneShot = await oneShotLinks(root, join(temp.directory, 'one-shot.sqlite'), stream);
    expect(later).toEqual(oneShot.map((link) => link.data));
  });
});
