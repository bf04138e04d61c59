/**
 * A position in the global ($all) order. Opaque and monotonic, never dense: EventStoreDB's
 * positions are byte offsets, so no code may compute "the next position" by adding one.
 */
export interface GlobalPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const comparePositions = (a: GlobalPosition, b: GlobalPosition): number =>
  a.commit < b.commit ? -1 : a.commit > b.commit ? 1 : a.prepare < b.prepare ? -1 : a.prepare > b.prepare ? 1 : 0;

export const isAfter = (a: GlobalPosition, b: GlobalPosition): boolean => comparePositions(a, b) > 0;

/** The text form used in checkpoints and on the command line: `commit/prepare`. */
export const formatPosition = (position: GlobalPosition): string => `${position.commit}/${position.prepare}`;

export const parsePosition = (text: string): GlobalPosition | undefined => {
  const match = /^(\d+)(?:\/(\d+))?$/.exec(text.trim());
  if (match === null || match[1] === undefined) return undefined;
  const commit = BigInt(match[1]);
  return { commit, prepare: match[2] === undefined ? commit : BigInt(match[2]) };
};
