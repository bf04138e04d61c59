import { createHash } from 'node:crypto';

/*
 * The two uuid functions teamlog needs besides v7 (uuid-v7.ts), written here rather than taken
 * from the `uuid` package, whose entry point loads all of it (21 modules) into every process that
 * decodes an event id (docs/benchmarks.md, _Start-up_). A test holds both to the package's.
 */

/** RFC 9562 text of versions 1-8, and the nil and max uuids, in either case (as uuid's `validate`). */
const uuidPattern =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

export const isUuid = (text: unknown): boolean => typeof text === 'string' && uuidPattern.test(text);

const textOf = (bytes: Uint8Array): string => {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/** uuid v5 (RFC 9562 section 5.5): SHA-1 of the namespace's 16 bytes and the name's UTF-8, version and variant set. */
export const uuidV5 = (name: string, namespace: string): string => {
  if (!isUuid(namespace)) throw new TypeError(`not a uuid: ${namespace}`);
  const digest = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  return textOf(bytes);
};
