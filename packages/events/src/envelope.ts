import * as t from 'io-ts';
import { JsonValue } from './json-value';
import { NonNegativeInteger } from './numbers';
import { openObject } from './strict-object';

/** V0–V2 spell replace endpoints `start`/`end`; V3+ spell them `startSeq`/`endSeq`. */
export const SurfaceOp = t.union(
  [
    t.literal('append'),
    t.type({ op: t.literal('replace'), start: NonNegativeInteger, end: NonNegativeInteger }),
    t.type({ op: t.literal('replace'), startSeq: NonNegativeInteger, endSeq: NonNegativeInteger }),
  ],
  'SurfaceOp',
);
export type SurfaceOp = t.TypeOf<typeof SurfaceOp>;

/** Physical `sourceEventSeqs`: a run of three or more is stored as `[start, end]`. */
export const SeqReference = t.union(
  [NonNegativeInteger, t.tuple([NonNegativeInteger, NonNegativeInteger])],
  'SeqReference',
);
export const PhysicalSourceEventSeqs = t.readonlyArray(SeqReference, 'SourceEventSeqs');

/** One event line as written. Unknown envelope keys are kept (and exported again). */
export const PhysicalEnvelope = openObject(
  { type: t.string, seq: NonNegativeInteger, time: t.number, data: JsonValue },
  { ignorable: t.literal(true), surfaceOp: SurfaceOp, sourceEventSeqs: PhysicalSourceEventSeqs },
  'EventEnvelope',
);
export type PhysicalEnvelope = t.TypeOf<typeof PhysicalEnvelope>;

/** A logical event: packed rows expanded, `sourceEventSeqs` ranges expanded. */
export interface SessionEventEnvelope {
  readonly type: string;
  readonly seq: number;
  readonly time: number;
  readonly data: JsonValue;
  readonly ignorable?: true;
  readonly surfaceOp?: SurfaceOp;
  readonly sourceEventSeqs?: readonly number[];
}

export const packedRowTypes = ['text-chunks', 'reasoning-chunks', 'tool-call-chunks'] as const;
export type PackedRowType = (typeof packedRowTypes)[number];
export const isPackedRowType = (type: string): type is PackedRowType =>
  (packedRowTypes as readonly string[]).includes(type);

const packedCommon = {
  turn: NonNegativeInteger,
  step: NonNegativeInteger,
  index: NonNegativeInteger,
  dt: t.readonlyArray(t.number),
};

/** V0/V1 storage row standing for a run of `assistant/chunk` events (docs/rules.md#packed-rows). */
export const PackedTextRow = t.type(
  {
    type: t.union([t.literal('text-chunks'), t.literal('reasoning-chunks')]),
    seq0: NonNegativeInteger,
    time0: t.number,
    data: t.type({ ...packedCommon, texts: t.readonlyArray(t.string) }),
  },
  'PackedTextRow',
);
export const PackedToolCallRow = t.type(
  {
    type: t.literal('tool-call-chunks'),
    seq0: NonNegativeInteger,
    time0: t.number,
    data: t.intersection([
      t.type({ ...packedCommon, id: t.string, args: t.readonlyArray(t.string) }),
      t.partial({ name: t.string }),
    ]),
  },
  'PackedToolCallRow',
);
export const PackedRow = t.union([PackedTextRow, PackedToolCallRow], 'PackedRow');
export type PackedRow = t.TypeOf<typeof PackedRow>;
