import type * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { type CatalogEventType, type DecodeError, decodeCatalogEvent, eventCodecs } from '@teamlog/events';

/**
 * Whether a stored payload is what the catalog's codec for its type accepts; the DecodeError (field
 * path and expected type) when it is not. The folds read the payload itself, so only the verdict
 * matters: the codec's `is` gives it without the decoded copy and error context `decode` builds
 * for every field, and gives the same verdict for JSON values (what the store holds; they cannot
 * hold `undefined`, the one value `is` and the strict codecs' `decode` judge differently). Only a
 * refused payload is decoded, to explain why.
 */
export const catalogPayloadError = (type: CatalogEventType, data: unknown): DecodeError | undefined => {
  if ((eventCodecs[type] as t.Mixed).is(data)) return undefined;
  const decoded = decodeCatalogEvent(type, data);
  return isLeft(decoded) ? decoded.left : undefined;
};
