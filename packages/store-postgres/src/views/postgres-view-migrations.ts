import { postgresViewMigrations } from '../migrations/view-migrations';
import type { PostgresMigration, SchemaHistory } from '../postgres-migrations';

/** The view schema's migrations this package ships (compiled in from migrations/projections-postgres by scripts/embed-migrations.mjs). */
export const shippedViewMigrations: readonly PostgresMigration[] = postgresViewMigrations;

/** The views' schema has its own history table, beside the event store's, in the schema teamlog. */
export const viewSchemaHistory: SchemaHistory = { of: 'views', table: 'teamlog.projection_schema_migrations' };
