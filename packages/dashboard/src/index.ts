/**
 * @teamlog/dashboard: a read-only web dashboard and JSON API over teamlog's projections, updated
 * live with server-sent events. See docs/dashboard.md.
 */
export {
  startDashboardServer,
  defaultDashboardPort,
  DashboardListenFailed,
  type DashboardServer,
  type DashboardServerOptions,
} from './dashboard-server';
export { apiRoutes, type ApiRoute, type ApiResponse } from './api-routes';
export { HttpError, type HttpFault, type HttpErrorCode, httpStatusOf } from './http-errors';
export type { AssetDirectories } from './static-assets';
export {
  messageFlowOf,
  readMessageFlow,
  type FlowMessage,
  type FlowParticipant,
  type FlowStatus,
  type MessageFlow,
} from './message-flow';
export {
  layoutMessageFlow,
  defaultFlowLayoutOptions,
  InvalidMessageFlow,
  type FlowLayout,
  type FlowLayoutOptions,
  type ArrowLayout,
  type LaneLayout,
} from './message-flow-layout';
export { renderMessageFlowSvg } from './message-flow-svg';
export { inboxTimeline, type TimelineItem, type TimelineKind } from './inbox-timeline';
export type { EventDocument } from './event-document';
export { type ChainFindingsAnswer, type ChainRow, chainRow } from './chain-findings';
export * from './as-of-folds';
