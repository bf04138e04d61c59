import * as t from 'io-ts';
import { JsonObject } from './json-value';
import { SessionId } from './ids';
import { SurfaceOp } from './envelope';
import { compileValidator } from './compiled-validator';

/**
 * What the store keeps beside an event's `data`: the envelope fields of the session log (so an
 * import can be exported again verbatim) and the causation trail of events teamlog writes.
 */
export const StoredEventMetadata = t.intersection(
  [
    t.type({ time: t.number }),
    t.partial({
      ignorable: t.literal(true),
      surfaceOp: SurfaceOp,
      sourceEventSeqs: t.readonlyArray(t.number),
      /** Envelope keys the format does not define, kept verbatim (docs/rules.md#envelope). */
      extra: JsonObject,
      /** The source line had no seq/time (a normalised snapshot fixture). */
      normalised: t.literal(true),
      /** The event came from a packed chunk row of this kind (V0/V1). */
      packed: t.string,
      causationId: t.string,
      correlationId: t.string,
      writerSessionId: SessionId,
    }),
  ],
  'StoredEventMetadata',
);
export type StoredEventMetadata = t.TypeOf<typeof StoredEventMetadata>;

/** `StoredEventMetadata`'s verdict from its compiled validator (compiled-validator.ts): the views read it for every event. */
export const isStoredEventMetadata = compileValidator(StoredEventMetadata);
