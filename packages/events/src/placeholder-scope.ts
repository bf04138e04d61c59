/**
 * Snapshot fixtures of the reference harness normalise their headers and ids with placeholders
 * (`{{session:1}}`, `"cwd":"{{cwd}}"`), and unrelated fixtures share ids (`{{sessionId}}`, or one
 * fixed uuid per test suite). Such a log is imported under a scope (its fixture directory) and every
 * id read from it is resolved in that scope, so two fixtures never collide. Real logs carry no
 * placeholders and are never scoped.
 */
export const placeholderIdPattern = /^\{\{[a-zA-Z]+(?::\d+)?\}\}$/;

export const isPlaceholderId = (id: string): boolean => placeholderIdPattern.test(id);

/** A header with a `{{…}}` placeholder in any of its string fields belongs to a snapshot fixture. */
export const hasPlaceholderValues = (header: { readonly [key: string]: unknown }): boolean =>
  Object.values(header).some((value) => typeof value === 'string' && /\{\{[^}]+\}\}/.test(value));

/** An id as its scope knows it; outside a scope (every real log) the id is unchanged. */
export const scopeId = <T extends string>(id: T, scope: string | undefined): T => (scope === undefined ? id : (`${id}@${scope}` as T));
