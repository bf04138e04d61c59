import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OverviewAnswer, TeamsAnswer } from '../client/api-shapes';
import { KeptAudit } from '@teamlog/projections';
import { DashboardListenFailed, startDashboardServer } from '../src/dashboard-server';
import { KeptStatistics } from '../src/kept-statistics';
import { KeptTeams } from '../src/kept-teams';
import { type FixtureStore, openFixtureStore } from './fixture-store';
import { getJson, request } from './http-client';

let fixture: FixtureStore;

beforeEach(() => {
  fixture = openFixtureStore();
});

afterEach(async () => {
  await fixture.dispose();
});

describe('startDashboardServer', () => {
  it('listens on 127.0.0.1 by default and reports its URL', async () => {
    const server = await startDashboardServer({ store: fixture.store, port: 0 });
    try {
      expect(server.host).toBe('127.0.0.1');
      expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
      expect(server.port).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('takes the kept audit, statistics and team views once before it listens, so no request pays for their first whole read', async () => {
    const audit = jest.spyOn(KeptAudit.prototype, 'count');
    const statistics = jest.spyOn(KeptStatistics.prototype, 'read');
    const teams = jest.spyOn(KeptTeams.prototype, 'read');
    try {
      const server = await startDashboardServer({ store: fixture.store, port: 0 });
      await server.close();
      expect([audit.mock.calls.length, statistics.mock.calls.length, teams.mock.calls.length]).toEqual([1, 1, 1]);
    } finally {
      audit.mockRestore();
      statistics.mockRestore();
      teams.mockRestore();
    }
  });

  it('serves an empty store: no checkpoint yet, no teams', async () => {
    const server = await startDashboardServer({ store: fixture.store, port: 0 });
    try {
      const { body } = await getJson<TeamsAnswer>(new URL('/api/teams', server.url).toString());
      expect(body).toEqual({ checkpoint: null, teams: [] });
      const overview = await getJson<OverviewAnswer>(new URL('/api/overview', server.url).toString());
      expect(overview.body.overview.sessions).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('fails with DashboardListenFailed, naming host and port, when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : -1;
    try {
      const starting = startDashboardServer({ store: fixture.store, port });
      await expect(starting).rejects.toBeInstanceOf(DashboardListenFailed);
      await expect(starting).rejects.toThrow(`the dashboard cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('can be closed twice, and stops answering', async () => {
    const server = await startDashboardServer({ store: fixture.store, port: 0 });
    await server.close();
    await server.close();
    await expect(fetch(new URL('/api/teams', server.url))).rejects.toThrow();
  });
});

describe('the page and its assets', () => {
  let assets: { staticDirectory: string; clientDirectory: string; root: string };

  beforeEach(() => {
    const root = mkdtempSync(join(tmpdir(), 'teamlog-dashboard-assets-'));
    assets = { root, staticDirectory: join(root, 'static'), clientDirectory: join(root, 'client') };
    for (const directory of [assets.staticDirectory, assets.clientDirectory]) mkdirSync(directory);
  });

  afterEach(() => rmSync(assets.root, { recursive: true, force: true }));

  it('serves the page with a policy that allows only its own scripts, and the stylesheet', async () => {
    writeFileSync(join(assets.staticDirectory, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(assets.staticDirectory, 'dashboard.css'), 'body {}');
    const server = await startDashboardServer({ store: fixture.store, port: 0, assets });
    try {
      const page = await request(server.url);
      expect([page.status, page.contentType, page.text]).toEqual([
        200,
        'text/html; charset=utf-8',
        '<!doctype html><title>t</title>',
      ]);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      const css = await request(new URL('/assets/dashboard.css', server.url).toString());
      expect([css.status, css.contentType]).toEqual([200, 'text/css; charset=utf-8']);
    } finally {
      await server.close();
    }
  });

  it('serves compiled modules by plain name only', async () => {
    writeFileSync(join(assets.clientDirectory, 'app.js'), 'export {};');
    writeFileSync(join(assets.root, 'secret.js'), 'secret');
    const server = await startDashboardServer({ store: fixture.store, port: 0, assets });
    try {
      const app = await request(new URL('/assets/app.js', server.url).toString());
      expect([app.status, app.contentType, app.text]).toEqual([200, 'text/javascript; charset=utf-8', 'export {};']);
      for (const path of [
        '/assets/..%2Fsecret.js',
        '/assets/%2e%2e/secret.js',
        '/assets/App.js',
        '/assets/missing.js',
      ]) {
        const answer = await request(new URL(path, server.url).toString());
        expect([path, answer.status]).toEqual([path, 404]);
      }
    } finally {
      await server.close();
    }
  });

  it('says how to build the browser code when it is missing (503), instead of serving a blank page', async () => {
    const server = await startDashboardServer({ store: fixture.store, port: 0, assets });
    try {
      const answer = await getJson<{ error: string }>(new URL('/assets/app.js', server.url).toString());
      expect(answer.status).toBe(503);
      expect(answer.body.error).toBe(
        `the dashboard's browser code is not built (${join(assets.clientDirectory, 'app.js')} is missing): run "npx tsc -b packages/dashboard" (or "npm run build")`,
      );
    } finally {
      await server.close();
    }
  });
});
