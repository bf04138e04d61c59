import { type Either, left, right } from 'fp-ts/Either';
import { type JsonObject, JsonValue } from '@teamlog/events';

/**
 * How the port's metadata is stored in EventStoreDB's metadata, exactly reversibly:
 *
 * - a JSON object without `$`-prefixed keys (every StoredEventMetadata) is stored as is, plus the
 *   server's conventions `$correlationId` / `$causationId` copied from `correlationId` /
 *   `causationId`, so the server's `$by_correlation_id` projection and its UI see the trail;
 *   reading drops the copies again;
 * - anything else (arrays, scalars, null, objects that use `$` keys themselves) is wrapped as
 *   `{ "$teamlogMetadata": value }`, so nothing is lost or confused with the conventions;
 * - no metadata stays no metadata.
 *
 * Events written by other tools that carry only `$correlationId` / `$causationId` read back with
 * `correlationId` / `causationId` set from them.
 */
export const wrappedMetadataKey = '$teamlogMetadata';
const conventions = [
  ['correlationId', '$correlationId'],
  ['causationId', '$causationId'],
] as const;

const isJsonObject = (value: JsonValue): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const usesReservedKeys = (value: JsonObject): boolean => Object.keys(value).some((key) => key.startsWith('$'));

export const encodeMetadata = (metadata: JsonValue | undefined): JsonObject | undefined => {
  if (metadata === undefined) return undefined;
  if (!isJsonObject(metadata) || usesReservedKeys(metadata)) return { [wrappedMetadataKey]: metadata };
  const copies: Record<string, JsonValue> = {};
  for (const [field, convention] of conventions) {
    const value = metadata[field];
    if (typeof value === 'string') copies[convention] = value;
  }
  return { ...metadata, ...copies };
};

/** The client gives metadata as parsed JSON, or as bytes when they were not JSON. */
export const decodeMetadata = (stored: unknown): Either<string, JsonValue | undefined> => {
  if (stored === undefined) return right(undefined);
  if (stored instanceof Uint8Array) return left(`metadata is not JSON (${stored.byteLength} bytes)`);
  if (!JsonValue.is(stored)) return left('metadata is not a JSON value');
  if (!isJsonObject(stored)) return right(stored);
  if (Object.hasOwn(stored, wrappedMetadataKey)) return right(stored[wrappedMetadataKey] ?? null);
  const result: Record<string, JsonValue> = { ...stored };
  for (const [field, convention] of conventions) {
    const copy = stored[convention];
    if (typeof copy !== 'string') continue;
    const own = stored[field];
    if (own === undefined) result[field] = copy;
    if (own === undefined || own === copy) delete result[convention];
  }
  return right(result);
};
