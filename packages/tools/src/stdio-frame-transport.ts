import type { Readable, Writable } from 'node:stream';
// The SDK's CommonJS build is reached through its exports map; see the `paths` note in tsconfig.json.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  type JsonRpcErrorAnswer,
  decideFrame,
  defaultMaxFrameBytes,
  idOfTruncatedFrame,
  oversizedFrameAnswer,
} from './json-rpc-frames';

export interface StdioFrameTransportOptions {
  /** The most bytes of one frame (default 10 MiB). */
  readonly maxFrameBytes?: number;
}

/** Bytes kept of a frame that is being skipped, to find its id. */
const idWindow = 1024;

const newline = 0x0a;

/**
 * The MCP stdio transport of `teamlog mcp`: newline-delimited JSON-RPC on a pair of streams. Unlike
 * the SDK's, it never stops serving because of one frame: a frame over the limit is skipped as it
 * arrives (never buffered whole) and answered with a JSON-RPC error, an unparsable one gets -32700,
 * bad params -32602 with one sentence (json-rpc-frames.ts decides); the next frame is served.
 */
export class StdioFrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxFrameBytes: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of an oversized frame is read past: its first and last bytes, for its id. */
  private skipping: { head: string; tail: Buffer } | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: StdioFrameTransportOptions = {},
  ) {
    this.maxFrameBytes = options.maxFrameBytes ?? defaultMaxFrameBytes;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioFrameTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage | JsonRpcErrorAnswer): Promise<void> {
    if (this.closed) return;
    const text = `${JSON.stringify(message)}\n`;
    if (this.output.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.output.off('drain', done);
        this.output.off('close', done);
        resolve();
      };
      this.output.once('drain', done);
      this.output.once('close', done);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = undefined;
    this.onclose?.();
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < bytes.length && !this.closed) {
      const end = bytes.indexOf(newline, start);
      const piece = bytes.subarray(start, end === -1 ? bytes.length : end);
      this.take(piece);
      if (end === -1) return;
      this.endOfFrame();
      start = end + 1;
    }
  };

  /** Part of the current frame (no newline in it). */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping !== undefined) {
      this.skipping.tail = Buffer.concat([this.skipping.tail, piece]).subarray(-idWindow);
      return;
    }
    if (this.pendingBytes + piece.length <= this.maxFrameBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.pending, piece]);
    this.skipping = { head: sofar.subarray(0, idWindow).toString('utf8'), tail: sofar.subarray(-idWindow) };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endOfFrame(): void {
    if (this.skipping !== undefined) {
      const { head, tail } = this.skipping;
      this.skipping = undefined;
      this.answer(oversizedFrameAnswer(this.maxFrameBytes, idOfTruncatedFrame(head, tail.toString('utf8'))));
      return;
    }
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    const outcome = decideFrame(line);
    switch (outcome.kind) {
      case 'message':
        this.onmessage?.(outcome.message);
        return;
      case 'answer':
        this.answer(outcome.answer);
        return;
      case 'nothing':
        return;
      default: {
        const unreachable: never = outcome;
        throw new Error(`unknown frame outcome ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private answer(answer: JsonRpcErrorAnswer): void {
    this.send(answer).catch((error: unknown) => this.onerror?.(error as Error));
  }
}
