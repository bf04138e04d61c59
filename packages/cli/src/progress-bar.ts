import { Writable } from 'node:stream';
import { SingleBar } from 'cli-progress';
/** Reports how far a long job got. */
export interface Progress {
  start(total: number): void;
  /** `done` items finished; `label` names the one being worked on now. */
  update(done: number, label: string): void;
  finish(): void;
}

export const silentProgress: Progress = { start: () => undefined, update: () => undefined, finish: () => undefined };

const barWidth = 24;

const clipLeft = (text: string, width: number): string =>
  width <= 1 ? '' : text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;

/** One line: `importing [#####.....] 12/199 file`, clipped to `columns - 1` so the terminal never wraps. */
export const renderProgressBar = (
  title: string,
  done: number,
  total: number,
  label: string,
  columns: number,
): string => {
  const ratio = total <= 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(ratio * barWidth);
  const head = `${title} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${done}/${total}`;
  const room = columns - 1 - head.length - 1;
  const line = room > 1 && label !== '' ? `${head} ${clipLeft(label, room)}` : head;
  return line.slice(0, Math.max(0, columns - 1));
};

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
