import { isLeft } from 'fp-ts/Either';
import { type CatalogEventType, type DecodeError, catalogValidator, decodeCatalogEvent } from '@teamlog/events';

/**
 * Whether a stored payload is what the catalog's codec for its type accepts; the DecodeError (field
 * path and expected type) when it is not. The folds read the payload itself, so only the verdict
 * matters: the validator compiled from the codec gives `decode`'s verdict without the decoded copy
 * and error context `decode` builds for every field. Only a refused payload is decoded, to explain why.
 */
export const catalogPayloadError = (type: CatalogEventType, data: unknown): DecodeError | undefined => {
  if (catalogValidator(type)(data)) return undefined;
  const decoded = decodeCatalogEvent(type, data);
  return isLeft(decoded) ? decoded.left : undefined;
};
