/** One server-sent event: its `event:` name and `data:` text. */
export interface StreamEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * Splits a `text/event-stream` into events as its chunks arrive (fields `event` and `data`;
 * comments, `retry` and `id` are skipped). Events end at a blank line.
 */
export class EventStreamParser {
  private buffer = '';

  push(chunk: string): StreamEvent[] {
    this.buffer += chunk;
    const events: StreamEvent[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) events.push({ event, data: data.join('\n') });
    }
    return events;
  }
}
