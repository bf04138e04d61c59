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
