/** A one-shot signal between scripted sessions, so a scenario's interleaving is fixed, not timed. */
export class Gate {
  private release: () => void = () => undefined;
  readonly opened: Promise<void> = new Promise<void>((resolve) => (this.release = resolve));

  constructor(readonly label: string) {}

  open(): void {
    this.release();
  }
}
