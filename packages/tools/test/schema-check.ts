import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchema } from '@teamlog/tools';

const validator = new AjvJsonSchemaValidator();

/** Whether a value satisfies a schema, by the validator the MCP SDK's Client checks results with. */
export const schemaCheck =
  (schema: JsonSchema) =>
  (value: unknown): boolean =>
    validator.getValidator(schema)(value).valid;
