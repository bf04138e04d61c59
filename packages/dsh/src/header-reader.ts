import { basename } from 'node:path';
import { isLeft } from 'fp-ts/Either';
import {
  type FormatVersion,
  type JsonObject,
  isUnknownVersion,
  type SessionHeader,
  decodeSessionHeader,
} from '@teamlog/events';
import { SessionLogRejected, needsNewerReader, notASessionLog } from './session-log-errors';
import { generationOfFileName } from './session-file-name';

export interface ParsedHeader {
  /** The header line exactly as written (exported again verbatim). */
  readonly rawHeader: JsonObject;
  readonly header: SessionHeader;
  readonly formatVersion: FormatVersion;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const preview = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/**
 * Read line 1. Anything that is not a `{"type":"session",...}` object is "not a session log";
 * the version is checked before anything else, as docs/rules.md#header-version-first says, so an unknown generation
 * is reported as needing a newer reader rather than as corrupt.
 */
export const parseHeaderLine = (file: string, bytes: Buffer | undefined): ParsedHeader => {
  if (bytes === undefined) throw notASessionLog(file, 'the file has no complete first line');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw notASessionLog(file, 'the first line is not UTF-8 text');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notASessionLog(file, `the first line is not JSON: ${JSON.stringify(preview(text))}`);
  }
  if (!isRecord(value) || value.type !== 'session') {
    throw notASessionLog(file, `the first line is not a session header ({"type":"session",...}): ${preview(text)}`);
  }
  const decoded = decodeSessionHeader(value);
  if (isLeft(decoded)) {
    const error = decoded.left;
    if (isUnknownVersion(error, 'NewerFormatVersion')) throw needsNewerReader(file, error);
    throw SessionLogRejected.fromDecodeError('invalid-header', file, 1, error);
  }
  const header = decoded.right;
  const named = generationOfFileName(basename(file));
  if (named !== undefined && named !== header.version) {
    throw new SessionLogRejected(
      'invalid-header',
      file,
      `the header says version ${header.version} but the file name says generation ${named}`,
      { line: 1, path: 'version' },
    );
  }
  return { rawHeader: value as JsonObject, header, formatVersion: header.version };
};
