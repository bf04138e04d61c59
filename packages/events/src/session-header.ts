import * as t from 'io-ts';
import { type Either, left, isLeft } from 'fp-ts/Either';
import { DecodeError, decodeWith } from './decode-error';
import { SessionId } from './ids';
import { NonNegativeInteger } from './numbers';
import { openObject, strictObject } from './strict-object';

export const knownFormatVersions = [0, 1, 2, 3, 4] as const;
export type FormatVersion = (typeof knownFormatVersions)[number];
export const newestFormatVersion: FormatVersion = 4;

const common = {
  id: SessionId,
  createdAt: NonNegativeInteger,
  delegationDepth: NonNegativeInteger,
};
const optionalCommon = {
  cwd: t.string,
  parentSession: SessionId,
  origin: t.literal('subagent'),
  agentPreset: t.string,
};

export const SessionHeaderV0 = strictObject(
  { type: t.literal('session'), version: t.literal(0), ...common },
  { ...optionalCommon, seedLength: NonNegativeInteger },
  'SessionHeaderV0',
);
export const SessionHeaderV1 = strictObject(
  { type: t.literal('session'), version: t.literal(1), ...common },
  { ...optionalCommon, seedLength: NonNegativeInteger },
  'SessionHeaderV1',
);
const modern = <V extends 2 | 3 | 4>(version: V, name: string) =>
  strictObject(
    { type: t.literal('session'), version: t.literal(version), ...common, isSeeded: t.boolean },
    optionalCommon,
    name,
  );
export const SessionHeaderV2 = modern(2, 'SessionHeaderV2');
export const SessionHeaderV3 = modern(3, 'SessionHeaderV3');
export const SessionHeaderV4 = modern(4, 'SessionHeaderV4');

/**
 * Very old V0 fixtures predate the header checks: no `version` and/or no `delegationDepth`.
 * They are read as V0 with `delegationDepth` taken as 0 (top level) unless a parent is named.
 */
export const PreVersionHeader = openObject(
  { type: t.literal('session'), id: SessionId, createdAt: NonNegativeInteger },
  { version: t.literal(0), delegationDepth: NonNegativeInteger, ...optionalCommon, seedLength: NonNegativeInteger },
  'PreVersionHeader',
);

/** The logical header every generation is read into. */
export interface SessionHeader {
  readonly version: FormatVersion;
  readonly id: SessionId;
  readonly createdAt: number;
  readonly isSeeded: boolean;
  readonly delegationDepth?: number;
  readonly cwd?: string;
  readonly parentSession?: SessionId;
  readonly origin?: 'subagent';
  readonly agentPreset?: string;
  /** V0/V1 seeded forks: the inherited event count. */
  readonly seedLength?: number;
  /** The header predates `version`/`delegationDepth` checks and was read leniently. */
  readonly preVersion?: boolean;
}

export const newerFormatVersion = (version: number): DecodeError =>
  new DecodeError(
    'version',
    `0..${newestFormatVersion}`,
    `session format version ${version} needs a newer reader (this reader knows 0 to ${newestFormatVersion})`,
    {},
    { kind: 'NewerFormatVersion', version },
  );

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Version is checked before anything else, as docs/rules.md#header-version-first says: an unknown version is "newer", not corrupt. */
export const decodeSessionHeader = (raw: unknown): Either<DecodeError, SessionHeader> => {
  if (!isRecord(raw) || raw.type !== 'session') {
    return left(
      new DecodeError(
        'type',
        '"session"',
        `expected a session header line ({"type":"session",...}), got ${JSON.stringify(isRecord(raw) ? raw.type : raw)?.slice(0, 40)}`,
      ),
    );
  }
  const version = raw.version;
  if (typeof version === 'number' && Number.isInteger(version) && version > newestFormatVersion)
    return left(newerFormatVersion(version));
  if (version === undefined || raw.delegationDepth === undefined) {
    const decoded = decodeWith(PreVersionHeader)(raw);
    if (isLeft(decoded)) return decoded;
    const h = decoded.right;
    return {
      _tag: 'Right',
      right: { ...h, version: 0, isSeeded: h.seedLength !== undefined, preVersion: true } as SessionHeader,
    };
  }
  switch (version) {
    case 0:
    case 1: {
      const decoded = version === 0 ? decodeWith(SessionHeaderV0)(raw) : decodeWith(SessionHeaderV1)(raw);
      if (isLeft(decoded)) return decoded;
      const { type: _type, ...rest } = decoded.right;
      return { _tag: 'Right', right: { ...rest, isSeeded: rest.seedLength !== undefined } };
    }
    case 2:
    case 3:
    case 4: {
      const codec: t.Decoder<
        unknown,
        t.TypeOf<typeof SessionHeaderV2 | typeof SessionHeaderV3 | typeof SessionHeaderV4>
      > = version === 2 ? SessionHeaderV2 : version === 3 ? SessionHeaderV3 : SessionHeaderV4;
      const decoded = decodeWith(codec)(raw);
      if (isLeft(decoded)) return decoded;
      const { type: _type, ...rest } = decoded.right;
      return { _tag: 'Right', right: rest };
    }
    default:
      return left(
        new DecodeError(
          'version',
          '0 | 1 | 2 | 3 | 4',
          `expected a format version 0..${newestFormatVersion}, got ${JSON.stringify(version)}`,
        ),
      );
  }
};
