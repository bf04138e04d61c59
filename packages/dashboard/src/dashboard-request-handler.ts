import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLeft } from 'fp-ts/Either';
import { type ApiResponse, type ApiRoute, apiRoutes } from './api-routes';
import { errorMessage } from './error-message';
import { HttpError, httpHeadersOf, notFound } from './http-errors';
import { sendBody, sendError, sendJson } from './http-response';
import type { LiveAnswers, RenderedAnswer } from './live-answers';
import { decodeQuery, querySpec } from './query-spec';
import type { ServerSentEvents } from './server-sent-events';
import { type AssetDirectories, readStaticAsset } from './static-assets';
import type { ViewsSource } from './views-source';

export interface RequestContext {
  readonly source: ViewsSource;
  readonly events: ServerSentEvents;
  readonly assets: AssetDirectories;
  /** Plain answers shared per checkpoint. */
  readonly answers: LiveAnswers;
  /** An unexpected failure behind a 500 answer. */
  readonly onError: (error: unknown) => void;
}

const routesByPath = new Map<string, ApiRoute>(apiRoutes.map((route) => [route.path, route]));
const streamQuery = querySpec({}, {});

const listRoutes = () => ({
  routes: [
    ...apiRoutes.map(({ path, parameters, summary }) => ({ path, parameters, summary })),
    { path: '/api/stream', parameters: [], summary: 'server-sent events: "change" whenever the views move on' },
  ],
});

const openStream = (context: RequestContext, url: URL, method: string, response: ServerResponse): void => {
  const query = decodeQuery(streamQuery, url.searchParams);
  if (isLeft(query)) throw query.left;
  // HEAD has no body to stream: answer the headers and finish.
  if (method === 'HEAD') {
    sendBody(response, 200, 'text/event-stream; charset=utf-8', '', 'no-store');
    return;
  }
  context.events.open(response, 'hello', { checkpoint: context.source.checkpoint() });
};

const rendered = (answer: ApiResponse): RenderedAnswer =>
  answer.kind === 'json'
    ? { contentType: 'application/json; charset=utf-8', body: JSON.stringify(answer.body) }
    : { contentType: 'image/svg+xml; charset=utf-8', body: answer.body };

/** A plain request to a route over the views is answered once per checkpoint; `asOf` and store reads each time. */
const routeAnswer = (context: RequestContext, route: ApiRoute, url: URL): Promise<RenderedAnswer> => {
  const render = async () => rendered(await route.respond(url.searchParams, context.source));
  if (!route.fromViews || url.searchParams.has('asOf')) return render();
  return context.answers.answer(
    () => context.source.checkpoint(),
    `${url.pathname}?${url.searchParams.toString()}`,
    render,
  );
};

const serve = async (context: RequestContext, request: IncomingMessage, response: ServerResponse): Promise<void> => {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') throw new HttpError({ code: 'MethodNotAllowed', method });
  const url = new URL(request.url ?? '/', 'http://dashboard.invalid');
  if (url.pathname === '/api/stream') return openStream(context, url, method, response);
  if (url.pathname === '/api' || url.pathname === '/api/') return sendJson(response, 200, listRoutes());
  const route = routesByPath.get(url.pathname);
  if (route !== undefined) {
    const answer = await routeAnswer(context, route, url);
    return sendBody(response, 200, answer.contentType, answer.body, 'no-store');
  }
  if (url.pathname.startsWith('/api/')) throw notFound(`no API route ${url.pathname} (GET /api lists them)`);
  const asset = await readStaticAsset(url.pathname, context.assets);
  return sendBody(response, 200, asset.contentType, asset.body, 'no-cache');
};

/** Read-only: GET and HEAD only. Expected failures answer `{ error }` with their status; others 500. */
export const dashboardRequestHandler =
  (context: RequestContext) =>
  (request: IncomingMessage, response: ServerResponse): void => {
    serve(context, request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        context.onError(error);
        return;
      }
      if (error instanceof HttpError) {
        sendError(response, error.status, error.message, httpHeadersOf(error.fault));
        return;
      }
      context.onError(error);
      sendError(response, 500, `internal error: ${errorMessage(error)}`);
    });
  };
