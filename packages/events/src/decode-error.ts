import * as t from 'io-ts';
import { type Either, isLeft } from 'fp-ts/Either';

/** Where an input came from, so an error can name the file and line. */
export interface InputLocation {
  readonly file?: string;
  readonly line?: number;
}

const describeValue = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const isBranchingType = (type: t.Decoder<unknown, unknown>): boolean =>
  type instanceof t.UnionType || type instanceof t.IntersectionType;

/** A dotted field path; union and intersection branch indexes are not fields, so they are skipped. */
const pathOf = (context: t.Context): string => {
  let path = '';
  for (let index = 1; index < context.length; index += 1) {
    const entry = context[index];
    const parent = context[index - 1];
    if (entry === undefined || parent === undefined || entry.key === '' || isBranchingType(parent.type)) continue;
    const isIndex =
      parent.type instanceof t.ArrayType ||
      parent.type instanceof t.TupleType ||
      parent.type instanceof t.ReadonlyArrayType;
    path = isIndex ? `${path}[${entry.key}]` : path === '' ? entry.key : `${path}.${entry.key}`;
  }
  return path;
};

/** io-ts reports every branch of a union; the deepest path is the one a person wants to see. */
const deepestError = (errors: t.Errors): t.ValidationError | undefined =>
  errors.reduce<t.ValidationError | undefined>(
    (best, error) => (best === undefined || error.context.length > best.context.length ? error : best),
    undefined,
  );

export const formatValidationErrors = (
  errors: t.Errors,
  root = '',
): { path: string; expected: string; message: string } => {
  const error = deepestError(errors);
  if (error === undefined) return { path: root, expected: 'unknown', message: 'invalid value' };
  const inner = pathOf(error.context);
  const path =
    root === '' ? inner : inner === '' ? root : inner.startsWith('[') ? `${root}${inner}` : `${root}.${inner}`;
  const expected = error.message ?? error.context[error.context.length - 1]?.type.name ?? 'unknown';
  const message =
    error.message !== undefined ? error.message : `expected ${expected}, got ${describeValue(error.value)}`;
  return { path: path === '' ? '(root)' : path, expected, message };
};

/**
 * A version the decoder does not know, which is not corruption: a session header's format version
 * "needs a newer reader" (docs/rules.md#header-version-first), a Team record's version is
 * unsupported (docs/rules.md#team-record-head).
 */
export interface UnknownVersion {
  readonly kind: 'NewerFormatVersion' | 'UnsupportedTeamRecordVersion';
  readonly version: number;
}

/** A decode failure as one readable line: file, line, field path and the expected type. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly detail: string,
    readonly location: InputLocation = {},
    /** Set when what failed is only a version this decoder does not know. */
    readonly unknownVersion?: UnknownVersion,
  ) {
    super(DecodeError.render(path, detail, location));
  }

  static render(path: string, detail: string, location: InputLocation): string {
    const where = [location.file, location.line === undefined ? undefined : `line ${location.line}`]
      .filter((part) => part !== undefined)
      .join(':');
    return `${where === '' ? '' : `${where}: `}${path}: ${detail}`;
  }

  static fromErrors(errors: t.Errors, root = '', location: InputLocation = {}): DecodeError {
    const { path, expected, message } = formatValidationErrors(errors, root);
    return new DecodeError(path, expected, message, location);
  }

  at(location: InputLocation): DecodeError {
    return new DecodeError(
      this.path,
      this.expected,
      this.detail,
      { ...this.location, ...location },
      this.unknownVersion,
    );
  }
}

/** Narrow an unknown error to a DecodeError of an unknown version of this kind. */
export const isUnknownVersion = (
  error: unknown,
  kind: UnknownVersion['kind'],
): error is DecodeError & { readonly unknownVersion: UnknownVersion } =>
  error instanceof DecodeError && error.unknownVersion?.kind === kind;

/** Decode with a codec; a failure becomes a DecodeError rooted at `root`. */
export const decodeWith =
  <A>(codec: t.Decoder<unknown, A>, root = '') =>
  (input: unknown): Either<DecodeError, A> => {
    const result = codec.decode(input);
    return isLeft(result) ? { _tag: 'Left', left: DecodeError.fromErrors(result.left, root) } : result;
  };
