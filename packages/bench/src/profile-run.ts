import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isLeft } from 'fp-ts/Either';
import type { ChildRequest } from './child-protocol';
import { type CpuProfileSummary, type TimeShare, decodeCpuProfile, summariseCpuProfile } from './cpu-profile-summary';
import { benchChildScript, runChild } from './run-child';
import { bundleLocator, withSourceFrames } from './bundled-frames';

/**
 * Run a measurement again under `node --cpu-prof` (profile written into `directory`) and summarise it.
 * A worker thread (the opt-in SQLite writer thread) writes a profile of its own; the summary is of
 * the busiest one, which is the thread the measurement runs on.
 */
export const profileChild = async (request: ChildRequest, directory: string): Promise<CpuProfileSummary> => {
  await fs.mkdir(directory, { recursive: true });
  await runChild(request, ['--cpu-prof', `--cpu-prof-dir=${directory}`]);
  const files = (await fs.readdir(directory)).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`expected a .cpuprofile in ${directory}, found none`);
  const summaries = await Promise.all(files.map((name) => summariseProfileFile(join(directory, name))));
  return summaries.reduce((busiest, summary) => (summary.totalMs > busiest.totalMs ? summary : busiest));
};

const summariseProfileFile = async (file: string): Promise<CpuProfileSummary> => {
  const decoded = decodeCpuProfile(JSON.parse(await fs.readFile(file, 'utf8')));
  if (isLeft(decoded)) throw decoded.left;
  // The child is a bundle: its frames are summarised at their sources (its source map).
  return summariseCpuProfile(withSourceFrames(decoded.right, bundleLocator(benchChildScript)));
};

const shareLine = (entry: TimeShare): string =>
  `    ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.ms.toFixed(0).padStart(7)} ms  ${entry.name}`;

/** The summary as indented text lines: by area, top self time, top total time. */
export const renderProfileSummary = (title: string, summary: CpuProfileSummary, top = 12): string[] => [
  `${title} (${(summary.totalMs / 1000).toFixed(1)} s sampled)`,
  '  self time by area:',
  ...summary.byArea.slice(0, 8).map(shareLine),
  '  top self time:',
  ...summary.selfTime.slice(0, top).map(shareLine),
  '  top total time (callers included):',
  ...summary.totalTime
    .filter((entry) => !/^(processTicksAndRejections|runMicrotasks|\(program\))/.test(entry.name))
    .slice(0, top)
    .map(shareLine),
];
