/** One named step of the jest global setup; what it returns undoes it in the global teardown. */
export interface GlobalSetupStep {
  readonly name: string;
  readonly setUp: (log: (line: string) => void) => Promise<() => Promise<void>>;
}
