import * as t from 'io-ts';

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

const isJsonValue = (u: unknown, depth: number): u is JsonValue => {
  if (depth > 256) return false;
  if (u === null) return true;
  switch (typeof u) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(u);
    case 'object':
      if (Array.isArray(u)) return u.every((v) => isJsonValue(v, depth + 1));
      return Object.values(u as object).every((v) => isJsonValue(v, depth + 1));
    default:
      return false;
  }
};

/** Any value JSON.parse can return (finite numbers, no undefined, bounded depth). */
export const JsonValue = new t.Type<JsonValue, JsonValue, unknown>(
  'JsonValue',
  (u): u is JsonValue => isJsonValue(u, 0),
  (u, c) => (isJsonValue(u, 0) ? t.success(u) : t.failure(u, c)),
  t.identity,
);

const isJsonObject = (u: unknown): u is JsonObject =>
  typeof u === 'object' && u !== null && !Array.isArray(u) && isJsonValue(u, 0);

export const JsonObject = new t.Type<JsonObject, JsonObject, unknown>(
  'JsonObject',
  isJsonObject,
  (u, c) => (isJsonObject(u) ? t.success(u) : t.failure(u, c)),
  t.identity,
);
