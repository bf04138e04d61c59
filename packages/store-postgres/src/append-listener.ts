import { Client, Notification } from 'pg';
import { RetryPolicy, retryDelay, sleep } from './retry-policy';

/** The channel teamlog.notify_appended signals on, with the committed transaction id as payload. */
export const appendedChannel = 'teamlog_appended';

export interface AppendListenerOptions {
  readonly connect: () => Client;
  /** A group committed somewhere (its transaction id), or undefined after a reconnect, when notifications may have been missed. */
  readonly onAppended: (transaction: bigint | undefined) => void;
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
  private client: Client | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: AppendListenerOptions) {}

  start(): void {
    this.running ??= this.run();
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.client?.end().catch(() => undefined);
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
      });
      if (this.stop.signal.aborted) return;
      failures += 1;
      const delay = retryDelay(failures, this.options.retry);
      this.options.log(`teamlog postgres: the LISTEN connection ended (${ended}); reconnecting in ${Math.round(delay)} ms`);
      await sleep(delay, this.stop.signal);
    }
  }

  /** Connects, listens until the connection ends, and resolves with why it ended. */
  private async listenOnce(onListening: () => void): Promise<string> {
    const client = this.options.connect();
    this.client = client;
    const ended = new Promise<string>((resolve) => {
      client.on('error', (error) => resolve(this.options.describeError(error)));
      client.on('end', () => resolve('closed'));
    });
    client.on('notification', (message: Notification) => this.notified(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${appendedChannel}`);
      onListening();
    } catch (error) {
      await client.end().catch(() => undefined);
      return this.options.describeError(error);
    }
    const reason = await ended;
    await client.end().catch(() => undefined);
    return reason;
  }

  private notified(message: Notification): void {
    if (message.channel !== appendedChannel) return;
    const payload = message.payload ?? '';
    this.options.onAppended(/^\d+$/.test(payload) ? BigInt(payload) : undefined);
  }
}
