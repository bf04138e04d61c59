/** A throwaway cluster could not be set up; the message says which step failed and why. */
export class PostgresSetupFailed extends Error {
  override readonly name = 'PostgresSetupFailed';
  constructor(
    readonly step: string,
    detail: string,
  ) {
    super(`PostgreSQL test server: ${step} failed: ${detail}`);
  }
}
