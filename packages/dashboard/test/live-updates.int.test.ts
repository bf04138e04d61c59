import { comparePositions, parsePosition, sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import type { TeamsAnswer } from '../client/api-shapes';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { EventStreamClient, type StreamedEvent } from './event-stream-client';
import { type FixtureStore, openFixtureStore } from './fixture-store';
import { getJson } from './http-client';
import { appendAtlasTeam, appendSessionEvents, atlas, member } from './native-team';

let fixture: FixtureStore;
let server: DashboardServer;
let stream: EventStreamClient | undefined;

const checkpointOf = (event: StreamedEvent) => {
  const data = event.data as { checkpoint: string | null };
  return data.checkpoint === null ? undefined : parsePosition(data.checkpoint);
};

beforeEach(async () => {
  fixture = openFixtureStore();
  await appendAtlasTeam(fixture.store);
  server = await startDashboardServer({ store: fixture.store, port: 0 });
});

afterEach(async () => {
  stream?.close();
  stream = undefined;
  await server.close();
  await fixture.dispose();
});

const rosterNames = async (): Promise<string[]> => {
  const { body } = await getJson<TeamsAnswer>(new URL(`/api/teams?teamId=${atlas.teamId}`, server.url).toString());
  return body.teams[0]?.members.map((entry) => `${entry.name}:${entry.status}`) ?? [];
};

describe('live updates over server-sent events', () => {
  it('greets a new stream with the checkpoint of the views', async () => {
    stream = await EventStreamClient.open(new URL('/api/stream', server.url).toString());
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const hello = await stream.next();
    expect(hello.event).toBe('hello');
    const { body } = await getJson<TeamsAnswer>(new URL('/api/teams', server.url).toString());
    expect(hello.data).toEqual({ checkpoint: body.checkpoint });
  });

  it('sends "change" once the views hold an appended event, and the API then shows it', async () => {
    stream = await EventStreamClient.open(new URL('/api/stream', server.url).toString());
    await stream.next((event) => event.event === 'hello');
    const appended = await appendSessionEvents(fixture.store, atlas.lead, [
      member('tester', atlas.tester, 'provisioning', 'Run the slow suite'),
    ]);
    const change = await stream.next((event) => {
      const checkpoint = event.event === 'change' ? checkpointOf(event) : undefined;
      return checkpoint !== undefined && comparePositions(checkpoint, appended.position) >= 0;
    });
    expect(change.event).toBe('change');
    expect(await rosterNames()).toEqual(['reviewer:idle', 'writer:running', 'tester:provisioning']);
  });

  it('follows appends another connection makes to the same SQLite file (another process’s writer)', async () => {
    stream = await EventStreamClient.open(new URL('/api/stream', server.url).toString());
    await stream.next((event) => event.event === 'hello');
    const other = SqliteEventStore.open(fixture.file);
    try {
      const appended = await appendSessionEvents(other, atlas.lead, [
        member('tester', atlas.tester, 'provisioning', 'Run the slow suite'),
      ]);
      await stream.next((event) => {
        const checkpoint = event.event === 'change' ? checkpointOf(event) : undefined;
        return checkpoint !== undefined && comparePositions(checkpoint, appended.position) >= 0;
      });
    } finally {
      await other.close();
    }
    expect(await rosterNames()).toContain('tester:provisioning');
  });

  it('answers HEAD on the stream with its headers only', async () => {
    const answer = await fetch(new URL('/api/stream', server.url), { method: 'HEAD' });
    expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
      '',
    ]);
  });

  it('ends open streams on close, and leaves the store open for its owner', async () => {
    stream = await EventStreamClient.open(new URL('/api/stream', server.url).toString());
    await stream.next((event) => event.event === 'hello');
    await server.close();
    await stream.end();
    expect(stream.hasEnded).toBe(true);
    expect(await fixture.store.streamRevision(sessionStream(atlas.lead))).toBe(13n);
  });
});
