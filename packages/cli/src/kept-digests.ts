import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { readFileSync } from 'node:fs';
import { NonNegativeInteger, formatValidationErrors } from '@teamlog/events';
import { type StreamHead, streamName } from '@teamlog/store';
import { badInput } from './cli-errors';

/** One stream's head digest as `teamlog audit --digests --json` prints it. */
export const KeptDigestJson = t.type(
  { stream: t.string, revision: NonNegativeInteger, digest: t.union([t.string, t.null]) },
  'KeptDigestJson',
);
export const KeptDigestsJson = t.type({ digests: t.readonlyArray(KeptDigestJson) }, 'KeptDigestsJson');
export type KeptDigestsJson = t.TypeOf<typeof KeptDigestsJson>;

export const keptDigestsJson = (heads: readonly StreamHead[]): KeptDigestsJson => ({
  digests: heads.map((head) => ({
    stream: head.streamName,
    revision: Number(head.revision) as NonNegativeInteger,
    digest: head.digest,
  })),
});

/** The text form: a comment, then `STREAM REVISION DIGEST` per stream (`-` for a stream without digest). */
export const keptDigestsText = (heads: readonly StreamHead[]): string[] => [
  '# teamlog audit --digests: STREAM REVISION DIGEST (keep it elsewhere; check later with teamlog audit --against FILE)',
  ...heads.map((head) => `${head.streamName} ${head.revision} ${head.digest ?? '-'}`),
];

const digestPattern = /^([0-9a-f]{64}|-)$/;

const fromText = (text: string, file: string): StreamHead[] =>
  text.split('\n').flatMap((raw, index): StreamHead[] => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return [];
    const fields = line.split(/\s+/);
    const [stream, revision, digest] = fields;
    const fail = (path: string, detail: string) => badInput(detail, { file, line: index + 1, path });
    if (fields.length !== 3 || stream === undefined || revision === undefined || digest === undefined)
      throw fail('(line)', `expected "STREAM REVISION DIGEST", got ${fields.length} fields`);
    if (!/^\d+$/.test(revision)) throw fail('revision', `expected a non-negative integer, got "${revision}"`);
    if (!digestPattern.test(digest)) throw fail('digest', `expected 64 hex digits or "-", got "${digest}"`);
    return [{ streamName: streamName(stream), revision: BigInt(revision), digest: digest === '-' ? null : digest }];
  });

const fromJson = (text: string, file: string): StreamHead[] => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badInput(`not JSON: ${(error as Error).message}`, { file });
  }
  const decoded = KeptDigestsJson.decode(value);
  if (isLeft(decoded)) {
    const { path, message } = formatValidationErrors(decoded.left);
    throw badInput(message, { file, path });
  }
  return decoded.right.digests.map((kept, index) => {
    if (!digestPattern.test(kept.digest ?? '-'))
      throw badInput(`expected 64 hex digits or null, got "${kept.digest}"`, {
        file,
        path: `digests[${index}].digest`,
      });
    return { streamName: streamName(kept.stream), revision: BigInt(kept.revision), digest: kept.digest };
  });
};

/** Parse the heads kept by an earlier `teamlog audit --digests` (text or `--json`). */
export const parseKeptDigests = (text: string, file: string): StreamHead[] =>
  text.trimStart().startsWith('{') ? fromJson(text, file) : fromText(text, file);

export const readKeptDigests = (file: string): StreamHead[] => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw badInput(
      `cannot read the kept digests: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { file },
    );
  }
  return parseKeptDigests(text, file);
};
