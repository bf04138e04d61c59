import type { Position } from '@eventstore/db-client';
import type { GlobalPosition } from '@teamlog/store';

/* `$all` positions map one to one: both are {commit, prepare} bigints, opaque and not dense. */

export const toClientPosition = (position: GlobalPosition): Position => ({
  commit: position.commit,
  prepare: position.prepare,
});

export const fromClientPosition = (position: Position): GlobalPosition => ({
  commit: position.commit,
  prepare: position.prepare,
});
