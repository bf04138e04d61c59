import { eventColumns } from './event-row';

/*
 * Reading $all below the visibility horizon. pg_snapshot_xmin(pg_current_snapshot()) is the oldest
 * transaction still running anywhere in the cluster, in the statement's own snapshot: every
 * transaction below it has committed or rolled back, so the rows below it are final and no row can
 * later appear behind them. Rows of newer transactions wait until the horizon passes them.
 */

/** A page strictly after ($1 transaction, $2 position), at most $3 rows, with the horizon it was read under (one row with nulls when empty). */
export const readAllPageSql = `
WITH horizon AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
SELECT h.xmin::text AS horizon, ${eventColumns('e')}
FROM horizon h
LEFT JOIN LATERAL (
  SELECT * FROM teamlog.events ev
  WHERE (ev.transaction_id, ev.position) > ($1::xid8, $2::bigint) AND ev.transaction_id < h.xmin
  ORDER BY ev.transaction_id, ev.position
  LIMIT $3
) e ON true
ORDER BY e.transaction_id, e.position`;

export const horizonSql = 'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon';

/** The snapshot at this moment and the last position below its horizon: where a subscription "from the end" starts. */
export const endOfAllSql = `
WITH s AS (SELECT pg_current_snapshot() AS snapshot)
SELECT s.snapshot::text AS snapshot, e.transaction_id::text AS transaction_id, e.position::text AS position
FROM s
LEFT JOIN LATERAL (
  SELECT ev.transaction_id, ev.position FROM teamlog.events ev
  WHERE ev.transaction_id < pg_snapshot_xmin(s.snapshot)
  ORDER BY ev.transaction_id DESC, ev.position DESC
  LIMIT 1
) e ON true`;
