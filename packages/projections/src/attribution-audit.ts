import { type MessageId, type SessionId, type TeamId, isPeerSource, leadOf, scopeId } from '@teamlog/events';
import { type AcceptanceProblem, acceptanceCheckCodes } from './acceptance-problem';
import { compareText } from './compare-text';
import {
  type EraContext,
  type EraRules,
  referenceEraRules,
  sourceKindEraViolation,
  teamRecordEraViolation,
} from './era-rules';
import { type AcceptedMessage, acceptedMessages, senderOf } from './inbox-view';
import type { ProjectionState } from './projection-state';
import type { EventProblem, SessionFacts } from './session-facts';
import { scopeOfSessionId } from './session-scope';
import type { DeliveryMismatch, TeamProjection, TeamRecordFact } from './team-projection';
import { type TeamDirectory, type TeamDirectoryEntry, teamDirectory } from './team-directory';
import { revokedSessions, visibleState } from './visible-state';

export const auditCodes = [
  'header-sender-mismatch',
  'header-message-id-mismatch',
  'missing-sender-header',
  'roster-name-mismatch',
  'sender-not-in-team',
  'source-kind-outside-era',
  'team-record-outside-era',
  'legacy-delivered-to-other-target',
  'duplicate-acceptance',
  'undecodable-event',
  ...acceptanceCheckCodes,
  'message-id-reused',
  'revoked-session',
] as const;
export type AuditCode = (typeof auditCodes)[number];

export interface AuditFinding {
  readonly code: AuditCode;
  readonly sessionId: SessionId;
  /** The seq of the event that shows it; -1 for a session's header. */
  readonly seq: number;
  readonly messageId?: MessageId;
  readonly detail: string;
  readonly teamId?: TeamId;
}

/** What judging one acceptance reads besides the acceptance itself. */
export interface AuditContext {
  readonly state: ProjectionState;
  readonly directory: TeamDirectory;
  readonly rules: EraRules;
}

const eraContext = (facts: SessionFacts | undefined, time: number, normalised: boolean): EraContext => ({
  ...(facts?.header === undefined ? {} : { formatVersion: facts.header.formatVersion }),
  ...(normalised || facts?.header?.normalised === true ? {} : { time }),
});

const finding = (code: AuditCode, accepted: AcceptedMessage, detail: string, teamId?: TeamId): AuditFinding => ({
  code,
  sessionId: accepted.sessionId,
  seq: accepted.entry.acceptedSeq,
  messageId: accepted.detail.messageId,
  detail,
  ...(teamId === undefined ? {} : { teamId }),
});

const headerFindings = (accepted: AcceptedMessage): AuditFinding[] => {
  const { source } = accepted.entry;
  if (source.kind !== 'team-message' && source.kind !== 'team-relay') return [];
  const header = accepted.detail.header;
  if (header === null)
    return [
      finding(
        'missing-sender-header',
        accepted,
        `a ${source.kind} message must start with "Team message … from <sender>:"`,
      ),
    ];
  const found: AuditFinding[] = [];
  const sender = senderOf(source);
  if (sender.name !== undefined && header.senderName !== sender.name) {
    found.push(
      finding('header-sender-mismatch', accepted, `header names "${header.senderName}", source names "${sender.name}"`),
    );
  }
  if (source.kind === 'team-message') {
    const named =
      header.messageId === undefined ? undefined : scopeId(header.messageId, scopeOfSessionId(accepted.sessionId));
    if (named !== accepted.detail.messageId) {
      found.push(
        finding(
          'header-message-id-mismatch',
          accepted,
          `header names message ${named ?? '(none)'}, source names ${accepted.detail.messageId}`,
        ),
      );
    }
  }
  return found;
};

/** The teams a message to this session is judged against: the one its source names, else the target's. */
const teamsFor = (context: AuditContext, accepted: AcceptedMessage): readonly TeamDirectoryEntry[] => {
  const named = senderOf(accepted.entry.source).teamId;
  if (named === undefined) return context.directory.teamsOf(accepted.sessionId);
  const team = context.directory.team(named);
  return team === undefined ? [] : [team];
};

const teamFindings = (context: AuditContext, accepted: AcceptedMessage): AuditFinding[] => {
  const teams = teamsFor(context, accepted);
  const sender = senderOf(accepted.entry.source);
  if (teams.length === 0 || sender.sessionId === undefined) return [];
  const senderId = sender.sessionId;
  const home = teams.find((team) => team.names.has(senderId));
  if (home === undefined) {
    const list = teams.map((team) => team.teamId).join(', ');
    return [
      finding(
        'sender-not-in-team',
        accepted,
        `sender ${senderId} is neither the Lead nor a member of team ${list}`,
        teams[0]?.teamId,
      ),
    ];
  }
  const rosterName = home.names.get(senderId);
  const claimed = [
    ['source', sender.name],
    ['header', accepted.detail.header?.senderName],
  ].filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== rosterName);
  return claimed.length === 0
    ? []
    : [
        finding(
          'roster-name-mismatch',
          accepted,
          `${claimed.map(([where, name]) => `${where} names "${name}"`).join(', ')}; the roster names ${senderId} "${rosterName}"`,
          home.teamId,
        ),
      ];
};

const legacyFindings = (context: AuditContext, accepted: AcceptedMessage): AuditFinding[] => {
  const { source } = accepted.entry;
  const teamId = senderOf(source).teamId;
  if (source.kind !== 'team-message' || teamId === undefined) return [];
  const queued = context.state.teams.get(leadOf(teamId))?.state.messages.get(accepted.detail.messageId);
  const facts = context.state.sessions.get(accepted.sessionId);
  const era =
    accepted.entry.origin === 'accepted'
      ? undefined
      : sourceKindEraViolation(
          source.kind,
          eraContext(facts, accepted.detail.time, accepted.detail.normalised),
          queued !== undefined,
          context.rules,
        );
  return [
    ...(era === undefined ? [] : [finding('source-kind-outside-era', accepted, era, teamId)]),
    ...(queued === undefined || queued.message.targetId === accepted.sessionId
      ? []
      : [
          finding(
            'legacy-delivered-to-other-target',
            accepted,
            `queued for ${queued.message.targetId}, found in the inbox of ${accepted.sessionId}`,
            teamId,
          ),
        ]),
  ];
};

const eraFindings = (context: AuditContext, accepted: AcceptedMessage): AuditFinding[] => {
  const { source } = accepted.entry;
  // teamlog's own acceptances are written now, by this engine; team-message is judged with its team above.
  if (accepted.entry.origin === 'accepted' || source.kind === 'team-message') return [];
  const facts = context.state.sessions.get(accepted.sessionId);
  const era = sourceKindEraViolation(
    source.kind,
    eraContext(facts, accepted.detail.time, accepted.detail.normalised),
    false,
    context.rules,
  );
  return era === undefined ? [] : [finding('source-kind-outside-era', accepted, era)];
};

/** The findings of one acceptance on its own: its header, its team, the legacy mailbox and its era. */
export const acceptanceFindings = (context: AuditContext, accepted: AcceptedMessage): AuditFinding[] => [
  ...headerFindings(accepted),
  ...teamFindings(context, accepted),
  ...legacyFindings(context, accepted),
  ...eraFindings(context, accepted),
];

export const duplicateFinding = (accepted: AcceptedMessage, firstSeq: number): AuditFinding =>
  finding(
    'duplicate-acceptance',
    accepted,
    `message ${accepted.detail.messageId} was already accepted at seq ${firstSeq}`,
  );

const duplicateFindings = (messages: readonly AcceptedMessage[]): AuditFinding[] => {
  const seen = new Map<string, AcceptedMessage>();
  const found: AuditFinding[] = [];
  for (const accepted of messages) {
    const key = `${accepted.sessionId}\u0000${accepted.detail.messageId}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, accepted);
    else found.push(duplicateFinding(accepted, first.entry.acceptedSeq));
  }
  return found;
};

/**
 * The findings of the Team records of a Lead's stream from index `from` on that their era does not
 * allow, pushed onto `found`. A Lead log holds hundreds of thousands of records: the lead's context
 * is read once, and a record that breaks no rule allocates nothing.
 */
export const pushRecordEraFindings = (
  context: AuditContext,
  team: TeamProjection,
  from: number,
  found: AuditFinding[],
): void => {
  const lead = leadOf(team.state.teamId);
  const header = context.state.sessions.get(lead)?.header;
  // What eraContext gives for each record: the same format version, the record's own time unless normalised.
  const era: { formatVersion?: number; time?: number } =
    header === undefined ? {} : { formatVersion: header.formatVersion };
  const timed = header?.normalised !== true;
  const { records } = team;
  for (let index = from; index < records.length; index += 1) {
    const record = records[index] as TeamRecordFact;
    era.time = timed && !record.normalised ? record.time : undefined;
    const detail = teamRecordEraViolation(record, era, context.rules);
    if (detail !== undefined)
      found.push({
        code: 'team-record-outside-era',
        sessionId: lead,
        seq: record.seq,
        detail,
        teamId: team.state.teamId,
      });
  }
};

export const mismatchFinding = (team: TeamProjection, mismatch: DeliveryMismatch): AuditFinding => ({
  code: 'legacy-delivered-to-other-target',
  sessionId: leadOf(team.state.teamId),
  seq: mismatch.seq,
  messageId: mismatch.messageId,
  detail: `queued for ${mismatch.queuedTargetId}, recorded as delivered to ${mismatch.deliveredTargetId}`,
  teamId: team.state.teamId,
});

const leadFindings = (context: AuditContext): AuditFinding[] => {
  const found: AuditFinding[] = [];
  for (const team of context.state.teams.values()) {
    pushRecordEraFindings(context, team, 0, found);
    for (const mismatch of team.mismatches) found.push(mismatchFinding(team, mismatch));
  }
  return found;
};

export const problemFinding = (facts: SessionFacts, problem: EventProblem): AuditFinding => ({
  code: 'undecodable-event',
  sessionId: facts.id,
  seq: problem.seq,
  detail: `${problem.type}: ${problem.detail}`,
});

const problemFindings = (state: ProjectionState): AuditFinding[] =>
  [...state.sessions.values()].flatMap((facts) => facts.problems.map((problem) => problemFinding(facts, problem)));

/** A check an acceptance failed when it was folded (acceptance-checks.ts). */
export const checkFinding = (facts: SessionFacts, problem: AcceptanceProblem): AuditFinding => ({
  code: problem.code,
  sessionId: facts.id,
  seq: problem.seq,
  messageId: problem.messageId as MessageId,
  detail: problem.detail,
  teamId: problem.teamId as TeamId,
});

const checkFindings = (state: ProjectionState): AuditFinding[] =>
  [...state.sessions.values()].flatMap((facts) =>
    (facts.acceptanceProblems ?? []).map((problem) => checkFinding(facts, problem)),
  );

export const reusedIdFinding = (accepted: AcceptedMessage, earlier: SessionId, earlierSeq: number): AuditFinding =>
  finding(
    'message-id-reused',
    accepted,
    `message ${accepted.detail.messageId} was already accepted into ${earlier} at seq ${earlierSeq}`,
  );

/** teamlog gives every message it accepts a fresh id, so one id in two sessions' acceptances is a copy. */
const reusedIdFindings = (messages: readonly AcceptedMessage[]): AuditFinding[] => {
  const first = new Map<MessageId, AcceptedMessage>();
  const found: AuditFinding[] = [];
  for (const accepted of messages) {
    if (accepted.entry.origin !== 'accepted') continue;
    const earlier = first.get(accepted.detail.messageId);
    if (earlier === undefined) first.set(accepted.detail.messageId, accepted);
    else if (earlier.sessionId !== accepted.sessionId)
      found.push(reusedIdFinding(accepted, earlier.sessionId, earlier.entry.acceptedSeq));
  }
  return found;
};

export const compareFindings = (a: AuditFinding, b: AuditFinding): number =>
  compareText(a.sessionId, b.sessionId) ||
  a.seq - b.seq ||
  compareText(a.code, b.code) ||
  compareText(a.messageId ?? '', b.messageId ?? '');

/** A session a follower revoked: listed, its events not audited (a one-shot replay would not have them). */
export const revokedFindings = (state: ProjectionState): AuditFinding[] =>
  revokedSessions(state).map((revoked) => ({
    code: 'revoked-session' as const,
    sessionId: revoked.sessionId,
    seq: revoked.seq,
    detail: `the import of ${revoked.file} was revoked (${revoked.reason}): ${revoked.message}`,
  }));

/**
 * Sender-attribution findings over every view (docs/projections.md lists the codes and rules); a
 * revoked session is one finding, and its events are not audited.
 */
export const readAudit = (everything: ProjectionState, rules: EraRules = referenceEraRules): AuditFinding[] => {
  const state = visibleState(everything);
  const context: AuditContext = { state, directory: teamDirectory(state), rules };
  const peers = acceptedMessages(state).filter((accepted) => isPeerSource(accepted.entry.source));
  return [
    ...peers.flatMap((accepted) => acceptanceFindings(context, accepted)),
    ...duplicateFindings(peers),
    ...reusedIdFindings(peers),
    ...checkFindings(state),
    ...leadFindings(context),
    ...problemFindings(state),
    ...revokedFindings(everything),
  ].sort(compareFindings);
};
