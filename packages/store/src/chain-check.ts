import { type ChainedBytes, type EventDigest, eventDigest } from './event-digest';
import type { StreamName } from './stream-name';

/** An event as a store keeps it: the bytes its digest covers, and the digest written with it (null: none). */
export interface StoredLink extends ChainedBytes {
  readonly streamName: StreamName;
  readonly revision: bigint;
  readonly digest: EventDigest | null;
}

/** A stream's last revision and the digest stored with it: what `teamlog audit --digests` prints. */
export interface StreamHead {
  readonly streamName: StreamName;
  readonly revision: bigint;
  readonly digest: EventDigest | null;
}

export const chainBreakCodes = [
  'chain-event-changed',
  'chain-event-removed',
  'chain-event-inserted',
  'chain-event-unchained',
  'chain-stream-missing',
  'chain-stream-truncated',
  'chain-digest-differs',
] as const;
export type ChainBreakCode = (typeof chainBreakCodes)[number];

/** The first place a stream's stored bytes disagree with its chain (or with digests kept elsewhere). */
export interface ChainBreak {
  readonly code: ChainBreakCode;
  readonly streamName: StreamName;
  readonly revision: bigint;
  readonly detail: string;
}

/** One sentence per code, for `teamlog audit`. */
export const chainBreakExplanations: Readonly<Record<ChainBreakCode, string>> = {
  'chain-event-changed':
    "The event's stored bytes (or its digest) are not what was chained after its predecessor: it was changed after it was written.",
  'chain-event-removed': 'The stream skips a revision: the event there was removed after it was written.',
  'chain-event-inserted': 'The event sits between two events that chain to each other: it was inserted out of turn.',
  'chain-event-unchained':
    "The event carries no digest: it was written into the store without going through teamlog's append.",
  'chain-stream-missing': 'A stream whose head digest was kept is no longer in the store.',
  'chain-stream-truncated':
    'A stream ends before the revision whose digest was kept: events were removed from its end.',
  'chain-digest-differs':
    'The digest at the kept revision differs from the one kept: an event at or before it changed, and the chain was rewritten.',
};

interface StreamWalk {
  readonly streamName: StreamName;
  last: StoredLink;
  /** The digest stored before `last` (undefined when `last` is the first). */
  beforeLast: EventDigest | undefined;
  broken: boolean;
}

/**
 * Walks every stored event, stream by stream in revision order, and keeps the first break of each
 * stream (later events of a broken stream prove nothing more) and every stream's head. A fold like
 * the views': `check` updates the walk it is given.
 */
export interface ChainWalk {
  readonly breaks: ChainBreak[];
  readonly heads: StreamHead[];
  /** Digests at the revisions of `kept` heads, by stream. */
  readonly keptDigests: Map<StreamName, EventDigest | null>;
  readonly kept: ReadonlyMap<StreamName, StreamHead>;
  current: StreamWalk | undefined;
}

export const startChainWalk = (kept: readonly StreamHead[] = []): ChainWalk => ({
  breaks: [],
  heads: [],
  keptDigests: new Map(),
  kept: new Map(kept.map((head) => [head.streamName, head])),
  current: undefined,
});

const linkBreak = (walk: StreamWalk | undefined, link: StoredLink): Omit<ChainBreak, 'streamName'> | undefined => {
  const expected = walk === undefined ? 0n : walk.last.revision + 1n;
  if (link.revision > expected)
    return {
      code: 'chain-event-removed',
      revision: expected,
      detail: `revision ${expected} is missing; the next stored event is revision ${link.revision}`,
    };
  if (link.digest === null)
    return { code: 'chain-event-unchained', revision: link.revision, detail: 'the event has no digest' };
  const previous = walk?.last.digest ?? undefined;
  if (eventDigest(previous, link) === link.digest) return undefined;
  if (walk !== undefined && eventDigest(walk.beforeLast, link) === link.digest) {
    return {
      code: 'chain-event-inserted',
      revision: walk.last.revision,
      detail: `revision ${link.revision} chains onto the event before revision ${walk.last.revision}`,
    };
  }
  return {
    code: 'chain-event-changed',
    revision: link.revision,
    detail: `the stored digest ${link.digest.slice(0, 12)}… does not cover the stored bytes after its predecessor`,
  };
};

const closeStream = (walk: ChainWalk): void => {
  const current = walk.current;
  if (current === undefined) return;
  walk.heads.push({ streamName: current.streamName, revision: current.last.revision, digest: current.last.digest });
};

/** Take the next stored event (streams one after another, each in revision order). */
export const checkLink = (walk: ChainWalk, link: StoredLink): ChainWalk => {
  if (walk.current?.streamName !== link.streamName) {
    closeStream(walk);
    walk.current = undefined;
  }
  const current = walk.current;
  const found = current?.broken === true ? undefined : linkBreak(current, link);
  if (found !== undefined) walk.breaks.push({ streamName: link.streamName, ...found });
  if (current === undefined) {
    walk.current = { streamName: link.streamName, last: link, beforeLast: undefined, broken: found !== undefined };
  } else {
    current.broken ||= found !== undefined;
    current.beforeLast = current.last.digest ?? undefined;
    current.last = link;
  }
  if (walk.kept.get(link.streamName)?.revision === link.revision) walk.keptDigests.set(link.streamName, link.digest);
  return walk;
};

const keptBreaks = (walk: ChainWalk): ChainBreak[] => {
  const heads = new Map(walk.heads.map((head) => [head.streamName, head]));
  return [...walk.kept.values()].flatMap((kept): ChainBreak[] => {
    const head = heads.get(kept.streamName);
    if (head === undefined)
      return [
        {
          code: 'chain-stream-missing',
          streamName: kept.streamName,
          revision: kept.revision,
          detail: 'the stream is not in the store',
        },
      ];
    if (head.revision < kept.revision) {
      return [
        {
          code: 'chain-stream-truncated',
          streamName: kept.streamName,
          revision: kept.revision,
          detail: `the stream ends at revision ${head.revision}`,
        },
      ];
    }
    const now = walk.keptDigests.get(kept.streamName);
    return now === kept.digest
      ? []
      : [
          {
            code: 'chain-digest-differs',
            streamName: kept.streamName,
            revision: kept.revision,
            detail: `kept ${kept.digest ?? '(none)'}, stored ${now ?? '(none)'}`,
          },
        ];
  });
};

/** The walk's end: every stream's head, and the breaks, with the comparison against the kept heads. */
export const finishChainWalk = (walk: ChainWalk): { readonly breaks: ChainBreak[]; readonly heads: StreamHead[] } => {
  closeStream(walk);
  walk.current = undefined;
  return { breaks: [...walk.breaks, ...keptBreaks(walk)], heads: walk.heads };
};
