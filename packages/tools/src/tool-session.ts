import type { CloseReason, SessionId } from '@teamlog/events';
import type { InboxEntrySnapshot, LeadSession, MemberSession, TeamLog } from '@teamlog/team';
import { ToolError } from './tool-errors';

/**
 * What a tool call runs as: the session's own handle (every send is attributed to it) and a read of
 * its own inbox. Built by the host composition, which alone can open handles.
 */
export interface ToolSession {
  readonly handle: LeadSession | MemberSession;
  /** Every message this session's inbox accepted, in acceptance order. */
  readonly inbox: () => Promise<readonly InboxEntrySnapshot[]>;
  /** Why the session is closed (killed, cancelled, ...), read from its own stream at each call; undefined while it is open. */
  readonly closed: () => Promise<CloseReason | undefined>;
}

/** The session's role and team come from its own stream (`teamlog/session/created`), never from the caller. */
export const openToolSession = async (teamlog: TeamLog, sessionId: SessionId): Promise<ToolSession> => {
  const { teamId, role } = await teamlog.session(sessionId);
  if (teamId === undefined || role === undefined) throw new ToolError({ code: 'NotATeamSession', sessionId });
  const handle = role === 'lead' ? await teamlog.openLead(teamId) : await teamlog.openMember(teamId, sessionId);
  // Sealed like the handle it holds: no caller swaps in another session's handle.
  return Object.freeze({
    handle,
    inbox: async () => (await teamlog.session(sessionId)).inbox,
    closed: async () => {
      const snapshot = await teamlog.session(sessionId);
      return snapshot.status === 'closed' ? (snapshot.closeReason ?? 'lost') : undefined;
    },
  });
};
