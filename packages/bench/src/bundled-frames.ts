import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CpuProfile } from './cpu-profile-summary';

/** Where a frame's code came from: its source file and 0-based line, or undefined when not from the bundle. */
export type FrameLocator = (url: string, lineNumber: number, columnNumber: number) => SourcePlace | undefined;
export interface SourcePlace {
  readonly url: string;
  readonly lineNumber: number;
}

/**
 * The profile with every frame of a bundle put back at its source file and line, so the summary's
 * areas and labels name packages (`packages/<pkg>/src/...`) as they do for the tsc output.
 */
export const withSourceFrames = (profile: CpuProfile, locate: FrameLocator): CpuProfile => ({
  ...profile,
  nodes: profile.nodes.map((node) => {
    const frame = node.callFrame as CpuProfile['nodes'][number]['callFrame'] & { readonly columnNumber?: number };
    const place = locate(frame.url, frame.lineNumber, frame.columnNumber ?? 0);
    return place === undefined ? node : { ...node, callFrame: { ...frame, ...place } };
  }),
});

/** A locator for `bundleFile` from its external source map (`bundleFile.map`); none when it has no map. */
export const bundleLocator = (bundleFile: string): FrameLocator => {
  let map: SourceMap;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${bundleFile}.map`, 'utf8')));
  } catch {
    return () => undefined;
  }
  const bundleUrl = pathToFileURL(bundleFile).href;
  return (url, lineNumber, columnNumber) => {
    if (url !== bundleUrl && url !== bundleFile) return undefined;
    const entry = map.findEntry(lineNumber, columnNumber) as { originalSource?: string; originalLine?: number };
    if (entry.originalSource === undefined || entry.originalLine === undefined) return undefined;
    const source = entry.originalSource.startsWith('file:')
      ? entry.originalSource
      : pathToFileURL(resolve(dirname(bundleFile), entry.originalSource)).href;
    return { url: source, lineNumber: entry.originalLine };
  };
};
