import { TeamlogProjections } from '@teamlog/projections';
import { InMemoryEventStore, type ReadStreamOptions, type StreamName, sessionStream } from '@teamlog/store';
import { TeamMoments, sampleEvenly } from '../src/team-moments';
import { appendAtlasTeam, appendSessionEvents, atlas } from './native-team';

describe('sampleEvenly', () => {
  it('given no more items than the limit, then it keeps them all, in order', () => {
    expect(sampleEvenly([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });

  it('given a long history, then it keeps `limit` steps spread evenly, the first and the last among them', () => {
    const items = Array.from({ length: 1000 }, (_, index) => index);
    const sampled = sampleEvenly(items, 400);
    expect(sampled).toHaveLength(400);
    expect([sampled[0], sampled.at(-1)]).toEqual([0, 999]);
    expect(sampled).toEqual([...sampled].sort((a, b) => a - b));
    expect(new Set(sampled).size).toBe(400);
  });
});

describe('TeamMoments', () => {
  it('given a team read once, when its sessions append, then the next read reads only the new events and lists them too', async () => {
    const store = new InMemoryEventStore();
    await appendAtlasTeam(store);
    const from: Array<{ readonly stream: string; readonly from: unknown }> = [];
    const counting = new Proxy(store, {
      get: (target, property) =>
        property === 'readStream'
          ? (stream: StreamName, options?: ReadStreamOptions) => {
              from.push({ stream, from: options?.from });
              return target.readStream(stream, options);
            }
          : (Reflect.get(target, property) as unknown),
    });
    const views = await TeamlogProjections.inMemory(store);
    await views.catchUp();
    const team = views
      .views()
      .teams()
      .find((candidate) => candidate.teamId === atlas.teamId);
    if (team === undefined) throw new Error('the atlas team is missing');
    const moments = new TeamMoments(counting);
    expect(await moments.read(team)).toHaveLength(14 + 7 + 8);
    await appendSessionEvents(
      store,
      atlas.writer,
      [{ type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } }],
      Date.UTC(2026, 9, 6),
    );
    from.length = 0;
    const again = await moments.read(team);
    expect(again).toHaveLength(14 + 7 + 8 + 1);
    expect(again.at(-1)).toMatchObject({ sessionId: atlas.writer, seq: 8, type: 'turn/end' });
    expect(from).toEqual([
      { stream: sessionStream(atlas.lead), from: 14n },
      { stream: sessionStream(atlas.reviewer), from: 7n },
      { stream: sessionStream(atlas.writer), from: 8n },
    ]);
  });
});
