import { join } from 'node:path';
import { eventStoreMigrations, loadMigrations, viewMigrations } from '@teamlog/store-sqlite';

const repositoryMigrations = (folder: string) =>
  loadMigrations(join(__dirname, '..', '..', '..', 'migrations', folder));

describe('the migrations this package ships', () => {
  it('are the event store schema of migrations/sqlite, version by version (run `npm run build` after editing a .sql file)', () => {
    expect(eventStoreMigrations).toEqual(repositoryMigrations('sqlite'));
  });

  it('are the view schema of migrations/projections-sqlite, version by version', () => {
    expect(viewMigrations).toEqual(repositoryMigrations('projections-sqlite'));
  });
});
