import type { MessageId, SessionId, TaskId, TeamId } from '@teamlog/events';
import type { FileImportResult } from '@teamlog/dsh';
import type { AuditFindingJson, InboxEntryJson, ReplayDocument, TeamJson } from '../src/replay-document';
import type { TextStyle } from '../src/text/text-style';

/** Marks what a style would colour, so tests can see what is highlighted. */
export const markingStyle: TextStyle = {
  heading: (text) => `#${text}#`,
  alert: (text) => `<<${text}>>`,
  dim: (text) => `~${text}~`,
};

const sid = (id: string) => id as SessionId;

export const sampleTeam: TeamJson = {
  teamId: 'lead-1' as TeamId,
  lead: { id: sid('lead-1'), status: 'idle' },
  members: [
    {
      id: sid('m-1'),
      name: 'reviewer',
      description: 'reviews',
      provider: 'spawn',
      context: 'fresh',
      phase: 'active',
      status: 'idle',
    },
    {
      id: sid('m-2'),
      name: 'tester',
      description: 'tests',
      provider: 'spawn',
      context: 'fresh',
      phase: 'failed',
      error: 'quota exceeded',
      status: 'failed',
    },
  ],
  tasks: [
    {
      id: 'task-1' as TaskId,
      revision: 2,
      subject: 'Review',
      description: '',
      status: 'in_progress',
      ownerId: sid('m-1'),
      blockedBy: [],
      writeScopes: [],
    },
  ],
  legacyMessages: [
    {
      id: 'msg-1' as MessageId,
      senderId: sid('lead-1'),
      senderName: 'lead',
      targetId: sid('m-1'),
      queuedSeq: 4,
      status: 'delivered',
      deliveredSeq: 6,
      targetHasMessage: true,
    },
    {
      id: 'msg-2' as MessageId,
      senderId: sid('lead-1'),
      senderName: 'lead',
      targetId: sid('m-1'),
      delivery: 'quiet',
      queuedSeq: 9,
      status: 'undelivered',
      targetHasMessage: false,
    },
  ],
  failure: { seq: 12, type: 'team/task', reason: 'task dependency cycle includes "task-1"' },
};

export const sampleInbox: InboxEntryJson[] = [
  { sessionId: sid('m-1'), messageId: 'u-1' as MessageId, sourceKind: 'user', seq: 0, status: 'claimed' },
  {
    sessionId: sid('m-1'),
    messageId: 'msg-1' as MessageId,
    sourceKind: 'team-message',
    senderName: 'lead',
    seq: 6,
    status: 'pending',
    list: 'next-turn',
  },
  { sessionId: sid('lead-1'), messageId: 'u-2' as MessageId, sourceKind: 'user', seq: 0, status: 'claimed' },
];

export const sampleAudit: AuditFindingJson[] = [
  {
    code: 'sender-not-in-team',
    sessionId: sid('m-1'),
    seq: 7,
    messageId: 'x-1' as MessageId,
    detail: 'sender outsider is neither the Lead nor a member of team lead-1',
  },
];

const baseResult: FileImportResult = {
  file: 'logs/a/session.jsonl',
  sessionId: sid('a'),
  streamSessionId: sid('a'),
  formatVersion: 0,
  events: 10,
  appended: 10,
  alreadyStored: 0,
  recovery: null,
  unknownTypes: [],
  invalidTeamRecords: [],
  inheritedCount: 0,
  normalised: false,
  legacyShapes: 0,
};

export const importedResult = (overrides: Partial<FileImportResult> = {}): FileImportResult => ({
  ...baseResult,
  ...overrides,
});

export const rejectedResult = (
  file: string,
  reason: NonNullable<FileImportResult['rejected']>['reason'],
  message: string,
  line?: number,
  path?: string,
): FileImportResult => ({
  ...baseResult,
  file,
  sessionId: undefined,
  streamSessionId: undefined,
  formatVersion: undefined,
  events: 0,
  appended: 0,
  rejected: { reason, message, ...(line === undefined ? {} : { line }), ...(path === undefined ? {} : { path }) },
});

export const sampleDocument = (overrides: Partial<ReplayDocument> = {}): ReplayDocument => ({
  sessions: [],
  teams: [sampleTeam],
  inbox: sampleInbox,
  audit: sampleAudit,
  store: '/tmp/t.db',
  position: '42/42',
  totals: { files: 0, imported: 0, rejected: 0, notSessionLogs: 0, recovered: 0, appended: 0 },
  ...overrides,
});
