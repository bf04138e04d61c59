import { type ClientRequest, type IncomingMessage, get } from 'node:http';

export interface StreamedEvent {
  readonly event: string;
  readonly data: unknown;
}

/** A minimal `text/event-stream` reader for tests: waits for the next event that matches. */
export class EventStreamClient {
  private buffer = '';
  private readonly received: StreamedEvent[] = [];
  private waiting: Array<() => void> = [];
  private ended = false;

  private constructor(
    readonly response: IncomingMessage,
    private readonly request: ClientRequest,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.take(chunk));
    response.on('end', () => {
      this.ended = true;
      this.wake();
    });
  }

  static open(url: string): Promise<EventStreamClient> {
    return new Promise((resolve, reject) => {
      const request = get(url, { headers: { accept: 'text/event-stream' } }, (response) =>
        resolve(new EventStreamClient(response, request)),
      );
      request.on('error', reject);
    });
  }

  get hasEnded(): boolean {
    return this.ended;
  }

  /** Resolves with the first event (already received or still to come) that matches, consuming it and those before it. */
  async next(matches: (event: StreamedEvent) => boolean = () => true): Promise<StreamedEvent> {
    for (;;) {
      const index = this.received.findIndex(matches);
      if (index >= 0) return this.received.splice(0, index + 1)[index] as StreamedEvent;
      if (this.ended) throw new Error('the event stream ended before a matching event arrived');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Resolves when the server ends the stream. */
  async end(): Promise<void> {
    while (!this.ended) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.request.destroy();
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let boundary = this.buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const block = this.buffer.slice(0, boundary);
      this.buffer = this.buffer.slice(boundary + 2);
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length);
      if (event !== undefined && data !== undefined) this.received.push({ event, data: JSON.parse(data) as unknown });
      boundary = this.buffer.indexOf('\n\n');
    }
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((resolve) => resolve());
  }
}
