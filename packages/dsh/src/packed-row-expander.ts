import { type Either, isLeft, left, right } from 'fp-ts/Either';
import { DecodeError, type JsonObject, type PackedRowType } from '@teamlog/events';
import type { LogicalEvent } from './logical-event';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasExactKeys = (value: object, keys: readonly string[]): boolean =>
  Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));

const malformed = (type: PackedRowType, path: string, detail: string): Either<DecodeError, never> =>
  left(new DecodeError(path, type, `malformed ${type} row: ${detail}`));

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** A packed row that passed every check of docs/rules.md#packed-rows: what its members share, and their texts. */
export interface CheckedPackedRow {
  readonly type: PackedRowType;
  readonly seq0: number;
  readonly time0: number;
  /** The row's `data`: `turn`, `step`, `index` (and a tool call's `id`, `name`) checked. */
  readonly data: Record<string, unknown>;
  /** The members' texts (`texts` or `args`), strings. */
  readonly members: readonly string[];
  /** The gaps between the members' times, safe integers, one fewer than the members. */
  readonly dt: readonly number[];
}

/**
 * Check a V0/V1 packed chunk row (`text-chunks`, `reasoning-chunks`, `tool-call-chunks`) exactly
 * as docs/rules.md#packed-rows says: exact keys, `dt` one shorter than the members, safe-integer
 * seqs and times. Nothing is made per member.
 */
export const checkPackedRow = (
  type: PackedRowType,
  row: Record<string, unknown>,
): Either<DecodeError, CheckedPackedRow> => {
  if (!hasExactKeys(row, ['type', 'seq0', 'time0', 'data']))
    return malformed(type, '(root)', 'keys must be exactly {type, seq0, time0, data}');
  const { seq0, time0, data } = row;
  if (!isCount(seq0)) return malformed(type, 'seq0', 'seq0 must be a non-negative safe integer');
  if (typeof time0 !== 'number' || !Number.isSafeInteger(time0))
    return malformed(type, 'time0', 'time0 must be a safe integer');
  if (!isRecord(data)) return malformed(type, 'data', 'data must be an object');
  const isToolCall = type === 'tool-call-chunks';
  const payloadKey = isToolCall ? 'args' : 'texts';
  const keys = isToolCall
    ? Object.hasOwn(data, 'name')
      ? ['turn', 'step', 'index', 'id', 'name', 'dt', 'args']
      : ['turn', 'step', 'index', 'id', 'dt', 'args']
    : ['turn', 'step', 'index', 'dt', 'texts'];
  if (!hasExactKeys(data, keys)) return malformed(type, 'data', `data keys must be exactly {${keys.join(', ')}}`);
  for (const key of ['turn', 'step', 'index'] as const) {
    if (!isCount(data[key])) return malformed(type, `data.${key}`, `${key} must be a non-negative integer`);
  }
  if (isToolCall && typeof data.id !== 'string') return malformed(type, 'data.id', 'id must be a string');
  if (isToolCall && 'name' in data && typeof data.name !== 'string')
    return malformed(type, 'data.name', 'name must be a string');
  const members = data[payloadKey];
  if (!Array.isArray(members) || members.length === 0)
    return malformed(type, `data.${payloadKey}`, `${payloadKey} must be a non-empty string array`);
  const badMember = members.findIndex((member) => typeof member !== 'string');
  if (badMember !== -1) return malformed(type, `data.${payloadKey}[${badMember}]`, 'members must be strings');
  const dt = data.dt;
  if (!Array.isArray(dt)) return malformed(type, 'data.dt', 'dt must be an array');
  if (dt.length !== members.length - 1)
    return malformed(type, 'data.dt', `dt has ${dt.length} gaps for ${members.length} members`);
  if (!Number.isSafeInteger(seq0 + members.length - 1))
    return malformed(type, 'seq0', 'member seqs must stay safe integers');
  let time = time0;
  for (let k = 0; k < dt.length; k += 1) {
    const gap = dt[k];
    if (typeof gap !== 'number' || !Number.isSafeInteger(gap))
      return malformed(type, `data.dt[${k}]`, 'gaps must be safe integers');
    time += gap;
    if (!Number.isSafeInteger(time)) return malformed(type, `data.dt[${k}]`, 'member times must stay safe integers');
  }
  return right({ type, seq0, time0, data, members: members as string[], dt: dt as number[] });
};

/** The `chunk` of a checked row's member `k`, keys in the order the harness's own expansion gives. */
export const packedMemberChunk = (row: CheckedPackedRow, k: number): JsonObject => {
  const { type, data } = row;
  const member = row.members[k] as string;
  if (type === 'text-chunks') return { type: 'text-delta', index: data.index as number, text: member };
  if (type === 'reasoning-chunks') return { type: 'reasoning-delta', index: data.index as number, text: member };
  return {
    type: 'tool-call-delta',
    index: data.index as number,
    id: data.id as string,
    ...('name' in data ? { name: data.name as string } : {}),
    argumentsDelta: member,
  };
};

/** The `data` of a checked row's member `k`: `{turn, step, chunk}`. */
export const packedMemberData = (row: CheckedPackedRow, k: number): JsonObject => ({
  turn: row.data.turn as number,
  step: row.data.step as number,
  chunk: packedMemberChunk(row, k),
});

/** The `assistant/chunk` events a checked row stands for, in seq order. */
export const packedRowEvents = (row: CheckedPackedRow): LogicalEvent[] => {
  const { type, seq0, time0, members, dt } = row;
  const events: LogicalEvent[] = [];
  let time = time0;
  for (let k = 0; k < members.length; k += 1) {
    if (k > 0) time += dt[k - 1] as number;
    events.push({ type: 'assistant/chunk', seq: seq0 + k, time, data: packedMemberData(row, k), packed: type });
  }
  return events;
};

/**
 * Expand a V0/V1 packed chunk row into the `assistant/chunk` events it stands for, checked as
 * `checkPackedRow` checks it.
 */
export const expandPackedRow = (
  type: PackedRowType,
  row: Record<string, unknown>,
): Either<DecodeError, readonly LogicalEvent[]> => {
  const checked = checkPackedRow(type, row);
  return isLeft(checked) ? checked : right(packedRowEvents(checked.right));
};
