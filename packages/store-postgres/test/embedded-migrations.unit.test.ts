import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedMigrations } from '@teamlog/store-postgres';

const folder = join(__dirname, '../../../migrations/postgres');

describe('the migrations the package ships', () => {
  it('equal the SQL files of migrations/postgres, in version order (the build embeds them)', () => {
    const files = readdirSync(folder).filter((file) => file.endsWith('.sql')).sort();
    const fromFolder = files.map((file) => {
      const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
      if (match === null) throw new Error(`migrations/postgres/${file} is not named NNNN_name.sql`);
      return { version: Number(match[1]), name: match[2], sql: readFileSync(join(folder, file), 'utf8') };
    });
    expect(shippedMigrations).toEqual(fromFolder);
  });

  it('number versions densely from 1', () => {
    expect(shippedMigrations.map((migration) => migration.version)).toEqual(shippedMigrations.map((_, index) => index + 1));
  });
});
