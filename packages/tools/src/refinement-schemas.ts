import type * as t from 'io-ts';
import {
  MessageId,
  NonEmptyString,
  NonNegativeInteger,
  PositiveInteger,
  SessionId,
  TaskId,
  TeamId,
} from '@teamlog/events';
import type { JsonSchema } from './json-schema';

const nonEmpty: JsonSchema = { minLength: 1 };

/**
 * What each refinement's predicate checks, in JSON Schema words. A predicate is a function the
 * converter cannot read, so every refinement a tool uses is listed here (the converter refuses any
 * other) and a test checks each entry against its codec.
 */
export const refinementSchemas: ReadonlyMap<t.Mixed, JsonSchema> = new Map<t.Mixed, JsonSchema>([
  [SessionId, nonEmpty],
  [TeamId, nonEmpty],
  [MessageId, nonEmpty],
  [TaskId, nonEmpty],
  [NonEmptyString, nonEmpty],
  [PositiveInteger, { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }],
  [NonNegativeInteger, { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }],
]);
