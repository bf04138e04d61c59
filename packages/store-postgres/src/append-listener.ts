import type { Client, Notification } from 'pg';
import { type RetryPolicy, type StreamName, retryDelay, sleep } from '@teamlog/store';
import { parseAppendedPayload } from './notified-heads';

/** The channel teamlog.notify_appended signals on, with the committed transaction id (and the streams it wrote) as payload. */
export const appendedChannel = 'teamlog_appended';

export interface AppendListenerOptions {
  readonly connect: () => Client;
  /** A group committed somewhere (its transaction id), or undefined after a reconnect, when notifications may have been missed. */
  readonly onAppended: (transaction: bigint | undefined, streams?: readonly StreamName[]) => void;
  /** The LISTEN connection is up (true) or ended (false): notifications are only heard while it is up. */
  readonly onListening?: (listening: boolean) => void;
  readonly retry: RetryPolicy;
  readonly log: (line: string) => void;
  readonly describeError: (error: unknown) => string;
}

/**
 * One LISTEN connection per store, for its live subscriptions: wakes them when any process commits
 * an append. It reconnects after a dropped connection (with backoff, forever until stopped) and
 * then wakes every subscription, which reads from its own position, so nothing is missed twice
 * or delivered twice; subscriptions also poll, so a notification lost in between only delays.
 */
export class AppendListener {
  private readonly stop = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly options: AppendListenerOptions) {}

  start(): void {
    this.running ??= this.run();
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let connectedBefore = false;
    while (!this.stop.signal.aborted) {
      const ended = await this.listenOnce(() => {
        failures = 0;
        if (connectedBefore) this.options.onAppended(undefined);
        connectedBefore = true;
        this.options.onListening?.(true);
      });
      this.options.onListening?.(false);
      if (this.stop.signal.aborted) return;
      failures += 1;
      const delay = retryDelay(failures, this.options.retry);
      this.options.log(
        `teamlog postgres: the LISTEN connection ended (${ended}); reconnecting in ${Math.round(delay)} ms`,
      );
      await sleep(delay, this.stop.signal);
    }
  }

  /**
   * Connects, listens until the connection ends or the listener stops, and resolves with why. Every
   * wait also ends on stop, and the client is ended once without waiting for it: pg's end() of a
   * client that is still connecting may never settle.
   */
  private async listenOnce(onListening: () => void): Promise<string> {
    const client = this.options.connect();
    let endRequested = false;
    const endClient = (): void => {
      if (endRequested) return;
      endRequested = true;
      client.end().catch(() => undefined);
    };
    // Removed when this attempt ends: a server down for long makes many attempts on one signal.
    let onStop = (): void => undefined;
    const stopped = new Promise<string>((resolve) => {
      onStop = () => resolve('stopped');
      if (this.stop.signal.aborted) resolve('stopped');
      else this.stop.signal.addEventListener('abort', onStop, { once: true });
    });
    const ended = new Promise<string>((resolve) => {
      client.on('error', (error) => resolve(this.options.describeError(error)));
      client.on('end', () => resolve('closed'));
    });
    client.on('notification', (message: Notification) => this.notified(message));
    const listening = client
      .connect()
      .then(() => client.query(`LISTEN ${appendedChannel}`))
      .then(() => 'listening' as const)
      .catch((error: unknown) => this.options.describeError(error));
    try {
      const ready = await Promise.race([listening, stopped, ended]);
      if (ready !== 'listening') {
        endClient();
        return ready;
      }
      onListening();
      const reason = await Promise.race([ended, stopped]);
      endClient();
      return reason;
    } finally {
      this.stop.signal.removeEventListener('abort', onStop);
    }
  }

  private notified(message: Notification): void {
    if (message.channel !== appendedChannel) return;
    const { transaction, streams } = parseAppendedPayload(message.payload ?? '');
    this.options.onAppended(transaction, streams);
  }
}
