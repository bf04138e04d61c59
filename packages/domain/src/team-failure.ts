/** The first Team record that broke a Team rule (docs/rules.md#team-failure-mode); later Team records are ignored. */
export interface TeamFailure {
  readonly seq: number;
  readonly type: string;
  readonly reason: string;
}
