import type * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import {
  type CatalogEventType,
  type DecodeError,
  type EventClass,
  decodeSessionEvent,
  eventCodecs,
} from '@teamlog/events';
import { LegacyV0UserMessage, decodeLegacyV0Shape } from './legacy-v0-shapes';

/**
 * `codec.is` as the fast path of a strict decode. For every codec of the catalog (io-ts `type`,
 * `partial`, `intersection`, `union`, `tuple`, `readonlyArray`, `brand`, `literal`, `keyof` and
 * teamlog's `strictObject`, `openObject`, `taggedUnion`, `JsonValue`), `is` accepts only values
 * `validate` accepts (it is sometimes stricter: a tuple's extra items, a missing `unknown` key);
 * a unit test checks this on generated values. `is` builds no contexts and no Eithers, so the
 * common, valid payload costs a fraction of a decode. A throw counts as "not shown valid":
 * `taggedUnion.is` looks tags up without an own-property check (a tag such as "toString").
 */
const shownValid = (codec: { readonly is: t.Is<unknown> }, data: unknown): boolean => {
  try {
    return codec.is(data);
  } catch {
    return false;
  }
};

/**
 * The strict check of a catalog event's payload: undefined when valid, else the decode error of
 * `decodeSessionEvent` (one line, field path). Payloads `is` does not show valid are decoded by
 * io-ts, so every error is exactly the one the full decode gives.
 */
export const checkCatalogPayload = (type: string, eventClass: EventClass, data: unknown): DecodeError | undefined => {
  if (eventClass !== 'catalog' || shownValid(eventCodecs[type as CatalogEventType], data)) return undefined;
  const decoded = decodeSessionEvent(type, data);
  return isLeft(decoded) ? decoded.left : undefined;
};

/** The same for the legacy V0 `user/message` shape (see legacy-v0-shapes.ts). */
export const checkLegacyV0Shape = (data: unknown): DecodeError | undefined => {
  if (shownValid(LegacyV0UserMessage, data)) return undefined;
  const decoded = decodeLegacyV0Shape(data);
  return isLeft(decoded) ? decoded.left : undefined;
};
