import * as t from 'io-ts';
import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import { type GlobalPosition, parsePosition } from '@teamlog/store';
import { auditCodes, type AuditCode } from '@teamlog/projections';

/* Codecs from one query-string value (a string) to what a route uses. */

const quoted = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value) : String(value);

/** Ids in a query are bounded: a longer one cannot name a stream the importer or the engine wrote. */
const maxIdLength = 512;

const idParam = <A>(name: string, what: string) =>
  new t.Type<A, string, unknown>(
    name,
    (u): u is A => typeof u === 'string' && u.length > 0 && u.length <= maxIdLength,
    (u, c) =>
      typeof u === 'string' && u.length > 0 && u.length <= maxIdLength
        ? t.success(u as unknown as A)
        : t.failure(u, c, `expected ${what} (1 to ${maxIdLength} characters), got ${quoted(u)}`),
    (a) => a as unknown as string,
  );

export const SessionIdParam = idParam<SessionId>('SessionIdParam', 'a session id');
export const TeamIdParam = idParam<TeamId>('TeamIdParam', "a team id (the Lead's session id)");
export const MessageIdParam = idParam<MessageId>('MessageIdParam', 'a message id');

/** A session seq; -1 names the session's header (the audit reports header problems there). */
export const SeqParam = new t.Type<number, string, unknown>(
  'SeqParam',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= -1,
  (u, c) => {
    const value = typeof u === 'string' && /^-?\d{1,16}$/.test(u) ? Number(u) : Number.NaN;
    return Number.isSafeInteger(value) && value >= -1
      ? t.success(value)
      : t.failure(u, c, `expected an integer seq ≥ -1, got ${quoted(u)}`);
  },
  String,
);

/** A count of rows: `limit` (1 to `max`) or `offset` (from 0). */
export const countParam = (name: string, min: number, max: number) =>
  new t.Type<number, string, unknown>(
    name,
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= min && u <= max,
    (u, c) => {
      const value = typeof u === 'string' && /^\d{1,16}$/.test(u) ? Number(u) : Number.NaN;
      return Number.isSafeInteger(value) && value >= min && value <= max
        ? t.success(value)
        : t.failure(u, c, `expected an integer from ${min} to ${max}, got ${quoted(u)}`);
    },
    String,
  );

export const BooleanParam = new t.Type<boolean, string, unknown>(
  'BooleanParam',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) =>
    u === 'true'
      ? t.success(true)
      : u === 'false'
        ? t.success(false)
        : t.failure(u, c, `expected true or false, got ${quoted(u)}`),
  String,
);

const oneOf = <K extends string>(name: string, values: readonly K[]) =>
  new t.Type<K, string, unknown>(
    name,
    (u): u is K => typeof u === 'string' && (values as readonly string[]).includes(u),
    (u, c) =>
      typeof u === 'string' && (values as readonly string[]).includes(u)
        ? t.success(u as K)
        : t.failure(u, c, `expected one of ${values.join(', ')}, got ${quoted(u)}`),
    (a) => a,
  );

export const inboxStatuses = ['pending', 'claimed', 'canceled'] as const;
export const InboxStatusParam = oneOf('InboxStatusParam', inboxStatuses);

export const legacyStatuses = ['delivered', 'undelivered'] as const;
export const LegacyStatusParam = oneOf('LegacyStatusParam', legacyStatuses);

export const AuditCodeParam = oneOf<AuditCode>('AuditCodeParam', auditCodes);

/** A moment to read the views at: a global position (`commit/prepare`) or an ISO-8601 UTC time. */
export type AsOfParam = { readonly position: GlobalPosition } | { readonly time: number };

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

export const AsOfParam = new t.Type<AsOfParam, string, unknown>(
  'AsOfParam',
  (u): u is AsOfParam => typeof u === 'object' && u !== null && ('position' in u || 'time' in u),
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, `expected a position or a time, got ${quoted(u)}`);
    const position = parsePosition(u);
    if (position !== undefined) return t.success({ position });
    const time = isoTime.test(u) ? Date.parse(u) : Number.NaN;
    return Number.isNaN(time)
      ? t.failure(
          u,
          c,
          `expected a global position (e.g. 42 or 42/42) or a UTC time (e.g. 2026-09-26T12:00:00Z), got ${quoted(u)}`,
        )
      : t.success({ time });
  },
  (a) => ('position' in a ? `${a.position.commit}/${a.position.prepare}` : new Date(a.time).toISOString()),
);
