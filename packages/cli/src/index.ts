/**
 * @teamlog/cli: the `teamlog` command (docs/user-guide.md). The executable is bin/teamlog.js;
 * `runCli` runs it in process, and `ReplayDocument` is the io-ts codec of `teamlog replay --json`.
 */
export { runCli } from './run-cli';
export { processIo, type CliIo } from './cli-io';
export { commandList } from './commands/command-list';
export { ExitCode } from './exit-code';
export {
  type BadInput,
  CliError,
  type CliFault,
  type InputLocation,
  type UsageError,
  badInput,
  isCliError,
  usageError,
} from './cli-errors';
export {
  ReplayDocument,
  SessionJson,
  TeamJson,
  MemberJson,
  TaskJson,
  LegacyMessageJson,
  TeamFailureJson,
  InboxEntryJson,
  AuditFindingJson,
  RecoveryJson,
  RejectionJson,
  ReplayTotalsJson,
} from './replay-document';
export { buildReplayDocument, type ReplayDocumentInput } from './build-replay-document';
export { resolveStoreLocation, describeStoreLocation, defaultStoreFile, type StoreLocation } from './store-location';
export {
  parseArguments,
  booleanFlag,
  valueFlag,
  type CommandSyntax,
  type FlagSpec,
  type FlagSpecs,
  type FlagValues,
  type ParsedArguments,
  type PositionalSpec,
} from './argument-parser';
