import type { GlobalPosition } from '@teamlog/store';

/*
 * $all positions: commit = the writing transaction's id (xid8), prepare = the event's identity.
 * Ordered as the port compares them (commit, then prepare), which is the table's primary key.
 * Neither part is dense: transaction ids are shared by the whole cluster, identities skip on rollback.
 */

export const positionOf = (transactionId: string, position: string): GlobalPosition => ({
  commit: BigInt(transactionId),
  prepare: BigInt(position),
});

/** Query parameters for "strictly after this position" (the start is before every event). */
export const positionParameters = (after: GlobalPosition | undefined): [string, string] =>
  after === undefined ? ['0', '0'] : [after.commit.toString(), after.prepare.toString()];

export const startOfAll: GlobalPosition = { commit: 0n, prepare: 0n };
