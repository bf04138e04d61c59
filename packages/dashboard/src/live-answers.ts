/** A rendered answer: what goes on the wire. */
export interface RenderedAnswer {
  readonly contentType: string;
  readonly body: string;
}

/**
 * The answers to plain requests (no `asOf`) at the live views' current checkpoint, rendered once
 * and shared: until the views move on, the same request gets the same bytes, so a burst of page
 * loads costs one read of the views per route instead of one per request. Forgotten as soon as
 * the checkpoint changes; at most `limit` distinct requests are kept per checkpoint.
 */
export class LiveAnswers {
  private checkpoint: string | null | undefined;
  private readonly answers = new Map<string, Promise<RenderedAnswer>>();

  constructor(private readonly limit = 256) {}

  /**
   * The answer to `key` at `checkpoint`, rendered by `render` when it is not known yet. An answer
   * that failed, or that finished after the views moved on, is not kept.
   */
  answer(checkpoint: () => string | null, key: string, render: () => Promise<RenderedAnswer>): Promise<RenderedAnswer> {
    const at = checkpoint();
    if (at !== this.checkpoint) {
      this.answers.clear();
      this.checkpoint = at;
    }
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const rendered = render();
    if (this.answers.size < this.limit) {
      this.answers.set(key, rendered);
      const forget = () => {
        if (this.answers.get(key) === rendered) this.answers.delete(key);
      };
      rendered.then(() => {
        if (checkpoint() !== at) forget();
      }, forget);
    }
    return rendered;
  }
}
