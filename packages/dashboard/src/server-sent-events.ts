import type { ServerResponse } from 'node:http';

/** How long a browser waits before reconnecting after the stream drops (ms). */
const reconnectDelayMs = 2000;

/** The open `text/event-stream` responses, and one broadcast to all of them. */
export class ServerSentEvents {
  private readonly clients = new Set<ServerResponse>();

  get connections(): number {
    return this.clients.size;
  }

  open(response: ServerResponse, event: string, data: object): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write(`retry: ${reconnectDelayMs}\n\n`);
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
    ServerSentEvents.write(response, event, data);
  }

  send(event: string, data: object): void {
    this.clients.forEach((response) => ServerSentEvents.write(response, event, data));
  }

  closeAll(): void {
    this.clients.forEach((response) => response.end());
    this.clients.clear();
  }

  private static write(response: ServerResponse, event: string, data: object): void {
    // JSON.stringify never emits a raw newline, so one `data:` line carries the whole payload.
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
