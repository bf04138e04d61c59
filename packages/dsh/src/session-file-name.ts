/* File names of the harness's layout (docs/rules.md#layout-generations): session.jsonl (V0), session.vN.jsonl (VN), each optionally .zstd. */

export type Compression = 'none' | 'zstd';

export interface SessionFileName {
  /** The name without generation and extension; one log per stem and directory. */
  readonly stem: string;
  /** The generation the name states (`.vN`), 0 when it states none. */
  readonly generation: number;
  readonly compression: Compression;
}

const pattern = /^(?<stem>.+?)(?:\.v(?<generation>\d+))?\.jsonl(?<zstd>\.zstd)?$/;

export const parseSessionFileName = (name: string): SessionFileName | undefined => {
  const match = pattern.exec(name);
  if (match?.groups === undefined) return undefined;
  const { stem, generation, zstd } = match.groups;
  return {
    stem: stem as string,
    generation: generation === undefined ? 0 : Number(generation),
    compression: zstd === undefined ? 'none' : 'zstd',
  };
};

/**
 * The generation a name commits to: `.vN`, or 0 for exactly `session.jsonl`. Other names (a
 * single file "whatever its name") commit to nothing and the header decides.
 */
export const generationOfFileName = (name: string): number | undefined => {
  const parsed = parseSessionFileName(name);
  if (parsed === undefined) return undefined;
  if (/\.v\d+\.jsonl(\.zstd)?$/.test(name)) return parsed.generation;
  return parsed.stem === 'session' ? 0 : undefined;
};

/** The file name the harness's writer uses for a generation. */
export const sessionLogFileName = (formatVersion: number, compression: Compression): string =>
  `session${formatVersion === 0 ? '' : `.v${formatVersion}`}.jsonl${compression === 'zstd' ? '.zstd' : ''}`;
