import type { CloseReason, SessionId, TeamId } from '@teamlog/events';

/** Why a Team send was refused. Nothing is written when a send is refused. */
export abstract class SendRejected extends Error {
  abstract override readonly name: string;
}

/** No member of the team has this name or session id, and no teamlog session has this id. */
export class UnknownTarget extends SendRejected {
  override readonly name = 'UnknownTarget';
  constructor(readonly target: string) {
    super(`no team member or session "${target}"`);
  }
}

/** The target session exists but belongs to another team (or to none). */
export class TargetOutsideTeam extends SendRejected {
  override readonly name = 'TargetOutsideTeam';
  constructor(
    readonly target: SessionId,
    readonly teamId: TeamId,
  ) {
    super(`session "${target}" is not a member of team "${teamId}"`);
  }
}

/** The sending session is neither the Lead nor an active member of the team. */
export class SenderOutsideTeam extends SendRejected {
  override readonly name = 'SenderOutsideTeam';
  constructor(
    readonly sender: SessionId,
    readonly teamId: TeamId,
  ) {
    super(`session "${sender}" is not the Lead or an active member of team "${teamId}"`);
  }
}

export class MessageToSelf extends SendRejected {
  override readonly name = 'MessageToSelf';
  constructor(readonly sessionId: SessionId) {
    super(`session "${sessionId}" cannot send a Team message to itself`);
  }
}

/** A closed session (killed, cancelled, lost or failed) sends nothing: its handle outlived it. */
export class SenderClosed extends SendRejected {
  override readonly name = 'SenderClosed';
  constructor(
    readonly sender: SessionId,
    readonly reason: CloseReason,
  ) {
    super(`session "${sender}" is closed (${reason}) and sends no messages`);
  }
}

/** Killed, cancelled, lost or failed targets take no more messages. */
export class TargetClosed extends SendRejected {
  override readonly name = 'TargetClosed';
  constructor(
    readonly target: SessionId,
    readonly reason: CloseReason,
  ) {
    super(`session "${target}" is closed (${reason}) and accepts no messages`);
  }
}
