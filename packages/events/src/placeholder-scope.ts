/**
 * Snapshot fixtures of the reference harness replace ids with placeholders (`{{session:1}}`), so
 * unrelated fixtures share ids. Their sessions are imported under a scope (the fixture directory),
 * and every placeholder id read from their events is resolved in that scope. Real ids never match.
 */
export const placeholderIdPattern = /^\{\{[a-z]+:\d+\}\}$/;

export const isPlaceholderId = (id: string): boolean => placeholderIdPattern.test(id);

export const scopeId = <T extends string>(id: T, scope: string | undefined): T =>
  scope !== undefined && isPlaceholderId(id) ? (`${id}@${scope}` as T) : id;
