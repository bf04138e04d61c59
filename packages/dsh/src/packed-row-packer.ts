import type { JsonObject, PackedRowType } from '@teamlog/events';
import type { LogicalEvent } from './logical-event';

export type PackedOrPlain =
  | { readonly kind: 'row'; readonly row: JsonObject }
  | { readonly kind: 'event'; readonly event: LogicalEvent };

interface Member {
  readonly event: LogicalEvent;
  readonly kind: PackedRowType;
  readonly turn: number;
  readonly step: number;
  readonly index: number;
  readonly text: string;
  readonly id?: string;
  readonly name?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasExactKeys = (value: object, keys: readonly string[]): boolean =>
  Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));

const chunkKindOf: Record<string, PackedRowType> = {
  'text-delta': 'text-chunks',
  'reasoning-delta': 'reasoning-chunks',
  'tool-call-delta': 'tool-call-chunks',
};

/** A member when the event came from a packed row and still has exactly the shape a row can hold. */
const memberOf = (event: LogicalEvent): Member | undefined => {
  if (event.packed === undefined || event.type !== 'assistant/chunk') return undefined;
  if (
    event.ignorable !== undefined ||
    event.surfaceOp !== undefined ||
    event.sourceEventSeqs !== undefined ||
    event.extra !== undefined
  )
    return undefined;
  if (!Number.isSafeInteger(event.time)) return undefined;
  const data = event.data;
  if (!isRecord(data) || !hasExactKeys(data, ['turn', 'step', 'chunk'])) return undefined;
  const { turn, step, chunk } = data;
  if (typeof turn !== 'number' || typeof step !== 'number' || !isRecord(chunk) || typeof chunk.index !== 'number')
    return undefined;
  const kind = chunkKindOf[String(chunk.type)];
  if (kind === undefined || kind !== event.packed) return undefined;
  const base = { event, kind, turn, step, index: chunk.index };
  if (kind === 'tool-call-chunks') {
    const named = hasExactKeys(chunk, ['type', 'index', 'id', 'name', 'argumentsDelta']);
    if (!named && !hasExactKeys(chunk, ['type', 'index', 'id', 'argumentsDelta'])) return undefined;
    if (
      typeof chunk.id !== 'string' ||
      typeof chunk.argumentsDelta !== 'string' ||
      (named && typeof chunk.name !== 'string')
    )
      return undefined;
    return {
      ...base,
      text: chunk.argumentsDelta,
      id: chunk.id,
      ...(named ? { name: chunk.name as string } : {}),
    };
  }
  if (!hasExactKeys(chunk, ['type', 'index', 'text']) || typeof chunk.text !== 'string') return undefined;
  return { ...base, text: chunk.text };
};

const continues = (previous: Member, next: Member): boolean =>
  next.kind === previous.kind &&
  next.event.seq === previous.event.seq + 1 &&
  Number.isSafeInteger(next.event.time - previous.event.time) &&
  next.turn === previous.turn &&
  next.step === previous.step &&
  next.index === previous.index &&
  next.id === previous.id &&
  'name' in next === 'name' in previous &&
  next.name === previous.name;

const rowOf = (run: readonly Member[]): JsonObject => {
  const first = run[0] as Member;
  const dt = run.slice(1).map((member, k) => member.event.time - (run[k] as Member).event.time);
  const texts = run.map((member) => member.text);
  const data: JsonObject =
    first.kind === 'tool-call-chunks'
      ? {
          turn: first.turn,
          step: first.step,
          index: first.index,
          dt,
          id: first.id as string,
          ...(first.name === undefined ? {} : { name: first.name }),
          args: texts,
        }
      : { turn: first.turn, step: first.step, index: first.index, dt, texts };
  return { type: first.kind, seq0: first.event.seq, time0: first.event.time, data };
};

/**
 * Re-pack, for a V0/V1 export, the `assistant/chunk` events that were read from packed rows:
 * consecutive members of one block become one row again (any run length, since they came from a
 * row). Other events pass through unchanged, in order.
 */
export const packChunkRuns = (events: readonly LogicalEvent[]): PackedOrPlain[] => {
  const out: PackedOrPlain[] = [];
  let run: Member[] = [];
  const flush = (): void => {
    if (run.length > 0) out.push({ kind: 'row', row: rowOf(run) });
    run = [];
  };
  for (const event of events) {
    const member = memberOf(event);
    if (member === undefined) {
      flush();
      out.push({ kind: 'event', event });
      continue;
    }
    const last = run[run.length - 1];
    if (last !== undefined && !continues(last, member)) flush();
    run.push(member);
  }
  flush();
  return out;
};
