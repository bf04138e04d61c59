import { type CompiledValidator, compileValidator } from './compiled-validator';
import { type CatalogEventType, eventCodecs } from './event-catalog';

const compiled = new Map<CatalogEventType, CompiledValidator>();

/**
 * The compiled validator of a catalog type's payload codec: the strict check of the hot paths
 * (import, views, send). Compiled on first use and kept for the process.
 */
export const catalogValidator = (type: CatalogEventType): CompiledValidator => {
  const known = compiled.get(type);
  if (known !== undefined) return known;
  const validator = compileValidator(eventCodecs[type]);
  compiled.set(type, validator);
  return validator;
};
