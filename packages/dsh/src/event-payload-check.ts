import { isLeft } from 'fp-ts/Either';
import {
  type CatalogEventType,
  type CompiledValidator,
  type DecodeError,
  type EventClass,
  catalogValidator,
  compileValidator,
  decodeSessionEvent,
} from '@teamlog/events';
import { LegacyV0UserMessage, decodeLegacyV0Shape } from './legacy-v0-shapes';

/**
 * The compiled validator as the fast path of a strict decode: it accepts exactly what the codec's
 * `decode` accepts (compiled-validator.ts in events; the agreement is a property test), with no
 * contexts, Eithers or closures per value. A throw (a getter on a caller's object) counts as "not
 * shown valid", so the codec decides.
 */
const shownValid = (validator: CompiledValidator, data: unknown): boolean => {
  try {
    return validator(data);
  } catch {
    return false;
  }
};

const legacyV0Validator = compileValidator(LegacyV0UserMessage);

/**
 * The strict check of a catalog event's payload: undefined when valid, else the decode error of
 * `decodeSessionEvent` (one line, field path). Payloads the validator refuses are decoded by
 * io-ts, so every error is exactly the one the full decode gives.
 */
export const checkCatalogPayload = (type: string, eventClass: EventClass, data: unknown): DecodeError | undefined => {
  if (eventClass !== 'catalog' || shownValid(catalogValidator(type as CatalogEventType), data)) return undefined;
  const decoded = decodeSessionEvent(type, data);
  return isLeft(decoded) ? decoded.left : undefined;
};

/** The same for the legacy V0 `user/message` shape (see legacy-v0-shapes.ts). */
export const checkLegacyV0Shape = (data: unknown): DecodeError | undefined => {
  if (shownValid(legacyV0Validator, data)) return undefined;
  const decoded = decodeLegacyV0Shape(data);
  return isLeft(decoded) ? decoded.left : undefined;
};
