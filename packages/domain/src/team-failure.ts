/** The first Team record that broke a reference rule; later Team records are ignored. */
export interface TeamFailure {
  readonly seq: number;
  readonly type: string;
  readonly reason: string;
}
