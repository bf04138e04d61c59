/* Which driver and server errors mean "the connection or the server went away": safe to retry for
   reads, and for appends because a retried append with the same event ids is idempotent. */

const connectionCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTCONN',
  'EAI_AGAIN',
]);

/** SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, and the whole transaction rolled back by a deadlock or a serialization failure. */
const retryableStates: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01']);

const codeOf = (error: object): string | undefined =>
  'code' in error && typeof error.code === 'string' ? error.code : undefined;

/** Messages of `pg` for a connection that ended under a query (they carry no code). */
const droppedConnection =
  /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect/i;

export const isConnectionFailure = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const code = codeOf(error);
  if (code !== undefined && (connectionCodes.has(code) || retryableStates.has(code) || code.startsWith('08')))
    return true;
  return error instanceof Error && droppedConnection.test(error.message);
};

/** The SQLSTATE or driver code of an error, if it has one. */
export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null ? codeOf(error) : undefined;
