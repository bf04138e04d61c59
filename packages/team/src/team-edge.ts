import { ContentBlock, SessionId, TeamId } from '@teamlog/events';

/** One Team send as a steer path sees it: who to whom inside which team, and what. */
export interface TeamEdge {
  readonly teamId: TeamId;
  readonly from: SessionId;
  readonly to: SessionId;
  readonly content: readonly ContentBlock[];
  readonly signal?: AbortSignal;
}
