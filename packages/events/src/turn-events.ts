import * as t from 'io-ts';
import { NonNegativeInteger } from './numbers';
import { openObject } from './strict-object';
import { taggedUnion } from './tagged-union';

export const TurnStart = openObject({ turn: NonNegativeInteger }, { trigger: t.unknown }, 'TurnStart');
export type TurnStart = t.TypeOf<typeof TurnStart>;

const AbortReason = openObject({ kind: t.string }, {}, 'AbortReason');

export const TurnEndReason = taggedUnion(
  'kind',
  {
    completed: openObject({ kind: t.literal('completed') }, {}, 'Completed'),
    aborted: openObject({ kind: t.literal('aborted'), reason: AbortReason }, {}, 'Aborted'),
    blocked: openObject({ kind: t.literal('blocked') }, {}, 'Blocked'),
    error: openObject({ kind: t.literal('error'), error: t.unknown }, {}, 'ErrorEnd'),
    'max-tokens': openObject({ kind: t.literal('max-tokens') }, {}, 'MaxTokens'),
    interrupted: openObject({ kind: t.literal('interrupted') }, {}, 'Interrupted'),
    forked: openObject({ kind: t.literal('forked') }, {}, 'Forked'),
  },
  // Retired V0 reasons occur in old logs; keep them rather than refuse the log.
  openObject({ kind: t.string }, {}, 'RetiredTurnEndReason'),
  'TurnEndReason',
);

export const TurnEnd = openObject({ turn: NonNegativeInteger, reason: TurnEndReason }, {}, 'TurnEnd');
export type TurnEnd = t.TypeOf<typeof TurnEnd>;

export const StepBoundary = openObject({ turn: NonNegativeInteger, step: NonNegativeInteger }, {}, 'StepBoundary');
export type StepBoundary = t.TypeOf<typeof StepBoundary>;
