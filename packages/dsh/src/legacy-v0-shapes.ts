import * as t from 'io-ts';
import { type Either, isLeft, left, right } from 'fp-ts/Either';
import {
  ContentBlock,
  type DecodeError,
  type FormatVersion,
  MessageSource,
  decodeWith,
  strictObject,
} from '@teamlog/events';

/**
 * Early V0 logs wrote `user/message` data as `{content, source}`: no `id`, no `role`. The
 * harness's V0→V1 migration (docs/rules.md#legacy-v0-user-message) "adds current message wrappers and deterministic ids for legacy
 * messages", so this is a released shape, not damage. The catalog codec (current shape) refuses
 * it; the reader checks it against this strict codec instead and keeps it verbatim.
 */
export const LegacyV0UserMessage = strictObject(
  { content: t.readonlyArray(ContentBlock), source: MessageSource },
  {},
  'LegacyV0UserMessage',
);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when a V0/V1 event has the pre-wrapper `user/message` form (checked strictly by `decodeLegacyV0Shape`). */
export const isLegacyV0Shape = (formatVersion: FormatVersion, type: string, data: unknown): boolean =>
  formatVersion <= 1 && type === 'user/message' && isRecord(data) && !('id' in data) && !('role' in data);

export const decodeLegacyV0Shape = (data: unknown): Either<DecodeError, unknown> => {
  const decoded = decodeWith(LegacyV0UserMessage, 'data')(data);
  return isLeft(decoded) ? left(decoded.left) : right(decoded.right);
};
