import type { StoredLink, StreamName } from '@teamlog/store';

/*
 * The PostgreSQL store's hash chains (docs/trust-boundary.md): the `digest` column of
 * teamlog.events, written by the trigger of migrations/postgres/0002_hash_chain.sql over the json
 * text as stored. The audit reads that same text back, never the parsed value.
 */

export interface LinkRow {
  readonly stream_name: string;
  readonly revision: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string | null;
  readonly digest: string | null;
}

/** One page of stored events after (stream, revision), by stream then revision. */
export const storedLinksPageSql = `SELECT e.stream_name, e.revision::text AS revision, e.type, e.data::text AS data, e.metadata::text AS metadata, e.digest
FROM teamlog.events e WHERE (e.stream_name, e.revision) > ($1, $2::bigint) ORDER BY e.stream_name, e.revision LIMIT $3`;

export const toStoredLink = (row: LinkRow): StoredLink => ({
  streamName: row.stream_name as StreamName,
  revision: BigInt(row.revision),
  type: row.type,
  data: row.data,
  metadata: row.metadata,
  digest: row.digest,
});
