import { eventColumns } from './event-row';

/* Reading one stream by revision: every committed event, no horizon needed (revisions are dense and locked per stream). */

/** The stream's last revision; a stream locked by an append group before its first event (-1) does not exist yet. */
export const streamHeadSql =
  'SELECT last_revision::text AS last_revision FROM teamlog.streams WHERE stream_name = $1 AND last_revision >= 0';

export const readForwardsSql = `SELECT ${eventColumns('e')} FROM teamlog.events e
WHERE e.stream_name = $1 AND e.revision >= $2 AND e.revision <= $3 ORDER BY e.revision ASC LIMIT $4`;

export const readBackwardsSql = `SELECT ${eventColumns('e')} FROM teamlog.events e
WHERE e.stream_name = $1 AND e.revision <= $2 ORDER BY e.revision DESC LIMIT $3`;

export const listStreamsSql =
  'SELECT stream_name, last_revision::text AS last_revision FROM teamlog.streams WHERE last_revision >= 0 ORDER BY stream_name';
