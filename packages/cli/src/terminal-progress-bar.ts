import { Writable } from 'node:stream';
import { SingleBar } from 'cli-progress';
import { type Progress, renderProgressBar } from './progress-bar';

/** The terminal as cli-progress sees it: a TTY stream of known width whose text goes to `write`. */
class TerminalStream extends Writable {
  readonly isTTY = true;

  constructor(
    private readonly sink: (text: string) => void,
    readonly columns: number,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.sink(typeof chunk === 'string' ? chunk : String(chunk));
    done();
  }
}

/**
 * A bar drawn in place on a terminal by cli-progress (cursor to column 1, the line, erase to its
 * end; the line erased when finished), with our one-line format: `importing [###...] 12/199 file`.
 */
export class TerminalProgressBar implements Progress {
  private readonly bar: SingleBar;

  constructor(write: (text: string) => void, title: string, columns: number) {
    this.bar = new SingleBar({
      stream: new TerminalStream(write, columns),
      format: (_options, params, payload: { readonly label?: string }) =>
        renderProgressBar(title, params.value, params.total, payload.label ?? '', columns),
      fps: 25,
      clearOnComplete: true,
      hideCursor: false,
      linewrap: false,
      gracefulExit: false,
    });
  }

  start(total: number): void {
    this.bar.start(total, 0, { label: '' });
  }

  update(done: number, label: string): void {
    this.bar.update(done, { label });
  }

  finish(): void {
    this.bar.stop();
  }
}
