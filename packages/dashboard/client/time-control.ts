import type { Moment } from './api-shapes.js';
import { byId, formatTime } from './element.js';

/**
 * The time control over the selected team's history: a slider (one step per event of the team, as
 * `/api/moments` lists them), step back / step forward, play, and back to live. It only reports
 * the moment picked; the page reloads its panels as of it.
 */
export class TimeControl {
  private readonly slider = byId('time-slider', HTMLInputElement);
  private readonly back = byId('time-back', HTMLButtonElement);
  private readonly forward = byId('time-forward', HTMLButtonElement);
  private readonly play = byId('time-play', HTMLButtonElement);
  private readonly live = byId('time-live', HTMLButtonElement);
  private readonly label = byId('time-label', HTMLElement);
  private moments: readonly Moment[] = [];
  private playing: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onPick: (position: string | undefined) => Promise<void>,
    private readonly nameOf: (sessionId: string) => string,
  ) {
    this.slider.addEventListener('input', () => void this.pick(Number(this.slider.value)));
    this.back.addEventListener('click', () => void this.pick(this.index() - 1));
    this.forward.addEventListener('click', () => void this.pick(this.index() + 1));
    this.live.addEventListener('click', () => {
      this.stop();
      void this.onPick(undefined);
    });
    this.play.addEventListener('click', () => (this.playing === undefined ? this.start() : this.stop()));
  }

  /** Show the team's moments with `at` picked (undefined: live, the slider at its end). */
  show(moments: readonly Moment[], at: string | undefined): void {
    this.moments = moments;
    const index = at === undefined ? moments.length - 1 : moments.findIndex((moment) => moment.position === at);
    const max = Math.max(0, moments.length - 1);
    this.slider.max = String(max);
    this.slider.value = String(Math.max(0, index));
    this.slider.disabled = moments.length === 0;
    this.back.disabled = moments.length === 0 || (at !== undefined && index <= 0);
    this.forward.disabled = at === undefined || index >= max;
    this.live.disabled = at === undefined;
    this.live.setAttribute('aria-pressed', String(at === undefined));
    const text = this.describe(at === undefined ? undefined : moments[index], at, moments.length);
    this.slider.setAttribute('aria-valuetext', text);
    this.label.textContent = text;
    document.body.dataset.at = at ?? 'live';
  }

  private describe(moment: Moment | undefined, at: string | undefined, count: number): string {
    if (at === undefined)
      return count === 0 ? 'live: no events of this team yet' : `live: the latest of ${count} steps`;
    if (moment === undefined) return `as of position ${at}`;
    return `step ${this.index() + 1} of ${count}: ${formatTime(moment.time)} · ${moment.type} · seq ${moment.seq} of ${this.nameOf(moment.sessionId)}`;
  }

  private index(): number {
    return Number(this.slider.value);
  }

  private async pick(index: number): Promise<void> {
    const moment = this.moments[Math.min(Math.max(index, 0), this.moments.length - 1)];
    if (moment === undefined) return;
    await this.onPick(moment.position);
  }

  private start(): void {
    this.play.textContent = '❚❚ pause';
    this.play.setAttribute('aria-pressed', 'true');
    const atEnd = document.body.dataset.at === 'live' || this.index() >= this.moments.length - 1;
    const step = async (index: number): Promise<void> => {
      if (index >= this.moments.length) return this.stop();
      await this.pick(index);
      this.playing = setTimeout(() => void step(index + 1), 700);
    };
    this.playing = setTimeout(() => void step(atEnd ? 0 : this.index() + 1), 0);
  }

  private stop(): void {
    if (this.playing !== undefined) clearTimeout(this.playing);
    this.playing = undefined;
    this.play.textContent = '▶ play';
    this.play.setAttribute('aria-pressed', 'false');
  }
}
