import type { JsonObject } from '@teamlog/events';

/** A JSON Schema (draft 2020-12 subset: what the converter emits) is a plain JSON object. */
export type JsonSchema = JsonObject;
