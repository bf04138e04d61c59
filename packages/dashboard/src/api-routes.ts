import type * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { parsePosition } from '@teamlog/store';
import { auditListing } from './audit-listing';
import { readConversation } from './conversation-reader';
import { readSessionEvent, seqBaseOf } from './event-document';
import { notFound } from './http-errors';
import { inboxTimeline } from './inbox-timeline';
import { defaultLegacyPage, legacyMailbox, legacyMessageText, maxLegacyPage } from './legacy-mailbox';
import { readMessageFlow } from './message-flow';
import { withMessageTexts } from './message-texts';
import { layoutMessageFlow } from './message-flow-layout';
import { renderMessageFlowSvg } from './message-flow-svg';
import {
  AsOfParam,
  AuditCodeParam,
  BooleanParam,
  InboxStatusParam,
  LegacyStatusParam,
  SeqParam,
  SessionIdParam,
  TeamIdParam,
  countParam,
} from './query-codecs';
import { type QuerySpec, decodeQuery, parameterNames, querySpec } from './query-spec';
import { readSessions } from './session-list';
import { readTeamFailures } from './team-failures';
import { withActivity } from './team-activity';
import type { ViewsSource } from './views-source';

export type ApiResponse =
  | { readonly kind: 'json'; readonly body: object }
  | { readonly kind: 'svg'; readonly body: string };

export interface ApiRoute {
  readonly path: string;
  readonly parameters: readonly string[];
  readonly summary: string;
  /** Whether the answer depends only on the views (and events they name), so a plain answer can be shared per checkpoint. */
  readonly fromViews: boolean;
  /** Throws BadQuery for a bad query string and NotFound for a missing team, session or event. */
  readonly respond: (params: URLSearchParams, source: ViewsSource) => Promise<ApiResponse>;
}

const route = <R extends t.Props, O extends t.Props>(
  path: string,
  summary: string,
  spec: QuerySpec<R, O>,
  handle: (query: t.TypeOfProps<R> & t.TypeOfPartialProps<O>, source: ViewsSource) => Promise<ApiResponse>,
  fromViews = true,
): ApiRoute => ({
  path,
  summary,
  fromViews,
  parameters: parameterNames(spec),
  respond: async (params, source) => {
    const query = decodeQuery(spec, params);
    if (isLeft(query)) throw query.left;
    return handle(query.right, source);
  },
});

/** Every JSON answer says which moment of the views it shows. */
const json = (source: ViewsSource, asOf: AsOfParam | undefined, body: object): ApiResponse => ({
  kind: 'json',
  body: { checkpoint: source.checkpoint(), ...(asOf === undefined ? {} : { asOf: AsOfParam.encode(asOf) }), ...body },
});

const asOfOnly = { asOf: AsOfParam };
const OffsetParam = countParam('OffsetParam', 0, Number.MAX_SAFE_INTEGER);
const LegacyLimitParam = countParam('LegacyLimitParam', 1, maxLegacyPage);

const teamFlow = async (
  source: ViewsSource,
  query: { readonly teamId: t.TypeOf<typeof TeamIdParam>; readonly asOf?: AsOfParam },
) => {
  const flow = readMessageFlow(await source.views(query.asOf), query.teamId);
  if (flow === undefined) throw notFound(`no team ${query.teamId} in the views`);
  return flow;
};

export const apiRoutes: readonly ApiRoute[] = [
  route('/api/overview', 'counts over every view', querySpec({}, asOfOnly), async (query, source) =>
    json(source, query.asOf, { overview: (await source.views(query.asOf)).overview() }),
  ),
  route(
    '/api/teams',
    'teams with their roster (member status) and the counts of their tasks and legacy mailbox; with teamId, its task board',
    querySpec({}, { teamId: TeamIdParam, ...asOfOnly }),
    async (query, source) => {
      const views = await source.views(query.asOf);
      const teams = views.teams().filter((team) => query.teamId === undefined || team.teamId === query.teamId);
      return json(source, query.asOf, {
        teams: teams.map((team) => withActivity(views, team, query.teamId !== undefined)),
      });
    },
  ),
  route(
    '/api/sessions',
    'sessions with their inbox counts',
    querySpec({}, { teamId: TeamIdParam, withInbox: BooleanParam, ...asOfOnly }),
    async (query, source) =>
      json(source, query.asOf, {
        sessions: readSessions(await source.views(query.asOf), {
          ...(query.teamId === undefined ? {} : { teamId: query.teamId }),
          ...(query.withInbox === undefined ? {} : { withInbox: query.withInbox }),
        }),
      }),
  ),
  route(
    '/api/inbox',
    "a session's inbox: entries and the accepted/claimed/canceled timeline",
    querySpec({ sessionId: SessionIdParam }, { status: InboxStatusParam, peerOnly: BooleanParam, ...asOfOnly }),
    async (query, source) => {
      const views = await source.views(query.asOf);
      if (views.session(query.sessionId) === undefined) throw notFound(`no session ${query.sessionId} in the views`);
      const entries = views
        .inbox({ sessionId: query.sessionId, ...(query.peerOnly === undefined ? {} : { peerOnly: query.peerOnly }) })
        .filter((entry) => query.status === undefined || entry.status === query.status);
      return json(source, query.asOf, { sessionId: query.sessionId, entries, timeline: inboxTimeline(entries) });
    },
  ),
  route(
    '/api/conversation',
    "a session's transcript in order: user, assistant and tool text, Team messages with sender, delivery and status, legacy mailbox records",
    querySpec({ sessionId: SessionIdParam }, { fromSeq: SeqParam, ...asOfOnly }),
    async (query, source) => {
      const views = await source.views(query.asOf);
      if (views.session(query.sessionId) === undefined) throw notFound(`no session ${query.sessionId} in the views`);
      // A plain read is cut at the live views' checkpoint, so the text and the statuses show one moment.
      const live = source.checkpoint();
      const livePosition = live === null ? undefined : parsePosition(live);
      const cut = query.asOf ?? (livePosition === undefined ? undefined : { position: livePosition });
      const page = await readConversation(source.store, views, query.sessionId, {
        fromSeq: Math.max(0, query.fromSeq ?? 0),
        ...(cut === undefined ? {} : { asOf: cut }),
      });
      return json(source, query.asOf, page);
    },
  ),
  route(
    '/api/moments',
    "the steps of the page's time control: the team's events in $all order (at most 400, sampled evenly)",
    querySpec({ teamId: TeamIdParam }, {}),
    async (query, source) => {
      const team = (await source.views()).teams().find((candidate) => candidate.teamId === query.teamId);
      if (team === undefined) throw notFound(`no team ${query.teamId} in the views`);
      return json(source, undefined, { teamId: team.teamId, moments: await source.teamMoments(team) });
    },
  ),
  route(
    '/api/message-flow',
    'who sent what to whom in a team, in order',
    querySpec({ teamId: TeamIdParam }, asOfOnly),
    async (query, source) =>
      json(source, query.asOf, {
        flow: await withMessageTexts(
          source.store,
          await teamFlow(source, query),
          seqBaseOf(await source.views(query.asOf)),
        ),
      }),
  ),
  route(
    '/api/message-flow.svg',
    'the message flow drawn as an SVG sequence diagram',
    querySpec({ teamId: TeamIdParam }, asOfOnly),
    async (query, source) => {
      const flow = await teamFlow(source, query);
      return {
        kind: 'svg',
        body: renderMessageFlowSvg(
          layoutMessageFlow(flow),
          `Message flow of team ${flow.teamId}: ${flow.messages.length} messages`,
        ),
      };
    },
  ),
  route(
    '/api/audit',
    'sender-attribution findings, each with the URL of its event',
    querySpec({}, { code: AuditCodeParam, sessionId: SessionIdParam, teamId: TeamIdParam, ...asOfOnly }),
    async (query, source) => {
      const { asOf, ...filter } = query;
      const views = await source.views(asOf);
      const team =
        filter.teamId === undefined ? undefined : views.teams().find((candidate) => candidate.teamId === filter.teamId);
      const teamSessions =
        team === undefined ? undefined : new Set([team.lead.id, ...team.members.map((member) => member.id)]);
      return json(source, asOf, {
        findings: auditListing(views.audit(), { ...filter, ...(teamSessions === undefined ? {} : { teamSessions }) }),
      });
    },
  ),
  route(
    '/api/chains',
    "each stream's first hash-chain break (changed, removed, inserted or unchained event), recomputed from the stored bytes",
    querySpec({}, {}),
    async (_query, source) => json(source, undefined, await source.chains(seqBaseOf(await source.views()))),
    // The stored bytes can change under the views (a file edited): walked again for each request.
    false,
  ),
  route(
    '/api/legacy-mailbox',
    'mailbox-era messages, delivered or not (read-only), a page at a time (200 unless a limit up to 1,000 is given)',
    querySpec(
      {},
      { teamId: TeamIdParam, status: LegacyStatusParam, offset: OffsetParam, limit: LegacyLimitParam, ...asOfOnly },
    ),
    async (query, source) => {
      const { asOf, offset, limit, ...filter } = query;
      const views = await source.views(asOf);
      return json(
        source,
        asOf,
        legacyMailbox(views.teams(), filter, legacyMessageText(views.state), {
          ...(offset === undefined ? {} : { offset }),
          limit: limit ?? defaultLegacyPage,
        }),
      );
    },
  ),
  route(
    '/api/failures',
    'team projection failures with the record that caused them',
    querySpec({}, { teamId: TeamIdParam, ...asOfOnly }),
    async (query, source) => {
      const views = await source.views(query.asOf);
      const teams = views.teams().filter((team) => query.teamId === undefined || team.teamId === query.teamId);
      return json(source, query.asOf, { failures: await readTeamFailures(source.store, teams, seqBaseOf(views)) });
    },
  ),
  route(
    '/api/statistics',
    'messages per pair, claim latency, undelivered legacy messages, failures',
    querySpec({}, asOfOnly),
    async (query, source) =>
      json(source, query.asOf, { statistics: (await source.views(query.asOf)).boundedStatistics() }),
  ),
  route(
    '/api/event',
    'one stored event of a session (seq -1: its header)',
    querySpec({ sessionId: SessionIdParam, seq: SeqParam }, {}),
    async (query, source) => {
      const base = seqBaseOf(await source.views())(query.sessionId);
      const event = await readSessionEvent(source.store, query.sessionId, query.seq, base);
      if (event === undefined) throw notFound(`no event at seq ${query.seq} of session ${query.sessionId}`);
      return json(source, undefined, { event });
    },
    false,
  ),
];
