import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PostgresMigration, shippedMigrations, shippedViewMigrations } from '@teamlog/store-postgres';

const migrationsIn = (name: string): PostgresMigration[] => {
  const folder = join(__dirname, '../../../migrations', name);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
      if (match === null) throw new Error(`migrations/${name}/${file} is not named NNNN_name.sql`);
      return { version: Number(match[1]), name: match[2] as string, sql: readFileSync(join(folder, file), 'utf8') };
    });
};

describe.each([
  ['the event store', 'postgres', shippedMigrations],
  ['the views', 'projections-postgres', shippedViewMigrations],
])('the migrations the package ships for %s', (_, folder, shipped) => {
  it(`equal the SQL files of migrations/${folder}, in version order (the build embeds them)`, () => {
    expect(shipped).toEqual(migrationsIn(folder));
  });

  it('number versions densely from 1', () => {
    expect(shipped.map((migration) => migration.version)).toEqual(shipped.map((_migration, index) => index + 1));
  });
});
