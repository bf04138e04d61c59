/*
 * Errors thrown by Node's core modules may come from another realm (a test runner's sandbox), where
 * `instanceof Error` is false; these read what an error says without relying on it.
 */

const fieldOf = (error: unknown, key: string): unknown =>
  typeof error === 'object' && error !== null && key in error ? (error as Record<string, unknown>)[key] : undefined;

export const errorMessage = (error: unknown): string => {
  const message = fieldOf(error, 'message');
  return typeof message === 'string' ? message : String(error);
};

/** The system error code (`ENOENT`, `EADDRINUSE`, ...), if any. */
export const errorCode = (error: unknown): string | undefined => {
  const code = fieldOf(error, 'code');
  return typeof code === 'string' ? code : undefined;
};
