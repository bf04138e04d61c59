/** A `pg_snapshot` as its text form `xmin:xmax:xip,...` reads. */
export interface PgSnapshot {
  readonly xmin: bigint;
  readonly xmax: bigint;
  /** Transactions in progress when the snapshot was taken. */
  readonly inProgress: ReadonlySet<bigint>;
}

export const parsePgSnapshot = (text: string): PgSnapshot => {
  const match = /^(\d+):(\d+):([\d,]*)$/.exec(text.trim());
  if (match === null) throw new TypeError(`not a pg_snapshot: ${text}`);
  const inProgress = (match[3] as string)
    .split(',')
    .filter((part) => part.length > 0)
    .map((part) => BigInt(part));
  return { xmin: BigInt(match[1] as string), xmax: BigInt(match[2] as string), inProgress: new Set(inProgress) };
};

/** Whether a transaction's writes were visible in the snapshot (it had committed before it was taken), like pg_visible_in_snapshot. */
export const visibleInSnapshot = (snapshot: PgSnapshot, transaction: bigint): boolean =>
  transaction < snapshot.xmin || (transaction < snapshot.xmax && !snapshot.inProgress.has(transaction));
