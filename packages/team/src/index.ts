export type { AcceptedNotice, AcceptedListener } from './accepted-notice';
export type { SendRequest } from './send-request';
export { maxMessageBytes } from './send-request';
export type { SessionSnapshot, InboxEntrySnapshot } from './session-snapshot';
export type { LoopOutcome } from './team-engine';
export type { SessionRuntime } from './session-runtime';
export type {
  TeamSession,
  LeadSession,
  MemberSession,
  MemberSpawn,
  NewTask,
  SpawnedMember,
  TaskUpdate,
} from './team-session';
export type { TeamLog, CreateTeamOptions } from './team-log';
export { createTeamLog } from './create-team-log';
export type { TeamLogOptions } from './create-team-log';
export * from './team-log-errors';
export { leadName } from '@teamlog/domain';
export type {
  TurnAbortKind,
  Admission,
  SendRejection,
  TeamRejection,
  SessionLoopRejection,
  TeamFailure,
} from '@teamlog/domain';
export { teamNameOf } from './team-name';
