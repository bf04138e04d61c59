import {
  type CatalogEventOf,
  type SessionId,
  StoredEventMetadata,
  type TeamId,
  leadOf,
  scopeId,
} from '@teamlog/events';
import type { AcceptanceCheckCode, AcceptanceProblem } from './acceptance-problem';
import type { ProjectionState } from './projection-state';
import { scopeOfSessionId } from './session-scope';

type Acceptance = CatalogEventOf<'teamlog/inbox/accepted'> & { readonly sessionId: SessionId };

const writerOf = (metadata: unknown): SessionId | undefined =>
  StoredEventMetadata.is(metadata) ? metadata.writerSessionId : undefined;

const writerProblems = (sender: SessionId, metadata: unknown): Array<[AcceptanceCheckCode, string]> => {
  const writer = writerOf(metadata);
  if (writer === undefined)
    return [['writer-missing', `the event's metadata names no writer; the source names ${sender}`]];
  return writer === sender
    ? []
    : [['writer-not-sender', `the event's metadata names ${writer} as its writer; the source names ${sender}`]];
};

const streamProblems = (
  state: ProjectionState,
  sender: SessionId,
  teamId: TeamId,
): Array<[AcceptanceCheckCode, string]> => {
  const facts = state.sessions.get(sender);
  if (facts === undefined || facts.eventCount === 0)
    return [['sender-stream-missing', `sender ${sender} had no stream of its own when the message was accepted`]];
  const { lifecycle } = facts;
  const found: Array<[AcceptanceCheckCode, string]> = [];
  if (lifecycle.status === 'closed')
    found.push([
      'sender-closed',
      `sender ${sender} was closed (${lifecycle.closeReason ?? 'no reason'}) when the message was accepted`,
    ]);
  if (lifecycle.native && lifecycle.teamId !== teamId) {
    found.push([
      'sender-in-other-team',
      `sender ${sender} was created in ${lifecycle.teamId === undefined ? 'no team' : `team ${lifecycle.teamId}`}, the acceptance names team ${teamId}`,
    ]);
  }
  return found;
};

const rosterProblems = (
  state: ProjectionState,
  sender: SessionId,
  teamId: TeamId,
): Array<[AcceptanceCheckCode, string]> => {
  if (sender === leadOf(teamId)) return [];
  const members = state.teams.get(leadOf(teamId))?.state.members;
  return members?.has(sender) === true
    ? []
    : [
        [
          'sender-not-in-roster',
          `sender ${sender} was not on the roster of team ${teamId} when the message was accepted`,
        ],
      ];
};

/**
 * What an acceptance teamlog wrote (`teamlog/inbox/accepted`) is checked against as it is folded,
 * in `$all` order, so the sender's stream and the roster are read as they stood at that position
 * (docs/rules.md#acceptance-checks). The source's sender is the claim; each check is another
 * witness the store holds.
 * The views are read as they stand before the acceptance is folded.
 */
export const acceptanceProblems = (
  state: ProjectionState,
  event: Acceptance,
  metadata: unknown,
): AcceptanceProblem[] => {
  const { teamId, message } = event.data;
  const sender = message.source.senderSessionId;
  return [
    ...writerProblems(sender, metadata),
    ...streamProblems(state, sender, teamId),
    ...rosterProblems(state, sender, teamId),
  ].map(([code, detail]) => ({
    seq: event.seq,
    messageId: scopeId(message.id, scopeOfSessionId(event.sessionId)),
    code,
    detail,
    teamId,
  }));
};
