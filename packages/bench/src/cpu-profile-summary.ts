import * as t from 'io-ts';
import { type Either, isLeft, right } from 'fp-ts/Either';
import { type DecodeError, decodeWith } from '@teamlog/events';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) the summary reads. */
export const CpuProfile = t.type(
  {
    nodes: t.array(
      t.intersection([
        t.type({
          id: t.number,
          callFrame: t.type({ functionName: t.string, url: t.string, lineNumber: t.number }),
        }),
        t.partial({ children: t.array(t.number) }),
      ]),
    ),
    samples: t.array(t.number),
    timeDeltas: t.array(t.number),
  },
  'CpuProfile',
);
export type CpuProfile = t.TypeOf<typeof CpuProfile>;

export interface TimeShare {
  readonly name: string;
  readonly ms: number;
  /** Of the profile's sampled time, 0..1. */
  readonly share: number;
}

export interface CpuProfileSummary {
  readonly totalMs: number;
  /** Functions by the time spent in their own code. */
  readonly selfTime: readonly TimeShare[];
  /** Functions by the time spent in them and what they called (each sample counted once per function). */
  readonly totalTime: readonly TimeShare[];
  /** Self time by where the code lives: a teamlog package, a dependency, Node internals, GC. */
  readonly byArea: readonly TimeShare[];
}

type ProfileNode = CpuProfile['nodes'][number];

/** `packages/<pkg>/` becomes `@teamlog/<pkg>`, `node_modules/<name>` the dependency, `node:` Node itself. */
export const areaOfUrl = (url: string, functionName: string): string => {
  if (url === '') return functionName.startsWith('(') ? functionName : 'native';
  const pkg = /\/packages\/([^/]+)\//.exec(url);
  if (pkg !== null) return `@teamlog/${pkg[1]}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency !== null) return dependency[1] as string;
  if (url.startsWith('node:')) return 'node internals';
  return 'other';
};

const shortUrl = (url: string): string => {
  const pkg = /\/(packages\/.+)$/.exec(url);
  if (pkg !== null) return (pkg[1] as string).replace('/dist/', '/').replace(/\.js$/, '');
  const dependency = /node_modules\/(.+)$/.exec(url);
  return dependency !== null ? (dependency[1] as string) : url;
};

export const functionLabel = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName === '' ? '(anonymous)' : functionName;
  return url === '' ? name : `${name} ${shortUrl(url)}:${lineNumber + 1}`;
};

const ranked = (times: Map<string, number>, totalMs: number, limit: number): TimeShare[] =>
  [...times.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([name, ms]) => ({ name, ms, share: totalMs === 0 ? 0 : ms / totalMs }));

const add = (times: Map<string, number>, key: string, ms: number): void => {
  times.set(key, (times.get(key) ?? 0) + ms);
};

/** Top functions by self and total time, and self time by area. `(idle)` samples are left out. */
export const summariseCpuProfile = (profile: CpuProfile, limit = 15): CpuProfileSummary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  profile.nodes.forEach((node) => node.children?.forEach((child) => parentOf.set(child, node.id)));
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const areas = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    // timeDeltas[i] is the time since the previous sample: the time this sample stands for.
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    if (node === undefined || node.callFrame.functionName === '(idle)') return;
    totalMs += ms;
    add(self, functionLabel(node), ms);
    add(areas, areaOfUrl(node.callFrame.url, node.callFrame.functionName), ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at);
      if (frame === undefined || frame.callFrame.functionName === '(root)') continue;
      const label = functionLabel(frame);
      if (seen.has(label)) continue;
      seen.add(label);
      add(total, label, ms);
    }
  });
  return {
    totalMs,
    selfTime: ranked(self, totalMs, limit),
    totalTime: ranked(total, totalMs, limit),
    byArea: ranked(areas, totalMs, limit),
  };
};

export const decodeCpuProfile = (json: unknown): Either<DecodeError, CpuProfile> => {
  const decoded = decodeWith(CpuProfile, 'cpuprofile')(json);
  return isLeft(decoded) ? decoded : right(decoded.right);
};
