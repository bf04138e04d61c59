/**
 * @teamlog/bench: `npm run bench` (main.ts). Exported for reuse: the deterministic corpus
 * generator and the CPU profile summary.
 */
export {
  teamCorpus,
  corpusSessionId,
  type TeamCorpusOptions,
  type CorpusRecord,
  type CorpusSummary,
} from './team-corpus';
export { writeTeamCorpus, corpusLogFile, type WrittenCorpus } from './write-team-corpus';
export { summariseCpuProfile, decodeCpuProfile, type CpuProfileSummary, type TimeShare } from './cpu-profile-summary';
