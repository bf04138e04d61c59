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

/** The nil UUID: no harness mints it for a session (uuid v4 and v7 never produce it); test fixtures use it as a fixed id. */
export const nilUuid = '00000000-0000-0000-0000-000000000000';

/** A snapshot fixture's header: a placeholder in any field, or the nil UUID as its id. */
export const isSnapshotFixtureHeader = (header: { readonly [key: string]: unknown }): boolean =>
  header.id === nilUuid || hasPlaceholderValues(header);

/**
 * A placeholder without an index (`{{sessionId}}`) names no session in particular: fixtures put it
 * in the header of every log of a directory (a parent and its child alike), so such a log is
 * scoped by its file, not by its directory. Indexed ones (`{{session:2}}`) tell the sessions of a
 * directory apart and may refer to each other, so they share the directory's scope.
 */
export const isUnindexedPlaceholderId = (id: string): boolean => /^\{\{[a-zA-Z]+\}\}$/.test(id);

/** An id as its scope knows it; outside a scope (every real log) the id is unchanged. */
export const scopeId = <T extends string>(id: T, scope: string | undefined): T =>
  scope === undefined ? id : (`${id}@${scope}` as T);
