import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { startThrowawayCluster } from '@teamlog/postgres-testing';

const serverAnswers = async (url: string): Promise<string> => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (
      (await client.query<{ setting: string }>("SELECT current_setting('fsync') AS setting")).rows[0]?.setting ?? ''
    );
  } finally {
    await client.end();
  }
};

describe('a throwaway PostgreSQL cluster', () => {
  it('starts on a free loopback port with durable settings, survives a restart, and is removed when stopped', async () => {
    const cluster = await startThrowawayCluster();
    try {
      expect(cluster.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      expect(await serverAnswers(cluster.url)).toBe('on');
      await cluster.restart();
      expect(await serverAnswers(cluster.url)).toBe('on');
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.directory)).toBe(false);
  }, 120_000);

  it('halted as by a crash, refuses connections until started again, and keeps its data', async () => {
    const cluster = await startThrowawayCluster();
    try {
      await serverAnswers(cluster.url);
      await cluster.halt();
      await expect(serverAnswers(cluster.url)).rejects.toThrow(/ECONNREFUSED/);
      await cluster.start();
      expect(await serverAnswers(cluster.url)).toBe('on');
    } finally {
      await cluster.stop();
    }
  }, 120_000);
});
