import { CodedError, type MessageTable, describeFault } from '@teamlog/events';

/*
 * The one error the dashboard API answers with: an HttpError carries a fault whose `code` says what
 * was wrong, and the status (and headers) come from the code, in one table.
 */

export type HttpFault =
  /** A query parameter is missing, unknown, repeated or malformed. */
  | { readonly code: 'BadQuery'; readonly parameter: string; readonly detail: string }
  | { readonly code: 'NotFound'; readonly detail: string }
  | { readonly code: 'MethodNotAllowed'; readonly method: string }
  /** Too much work is queued (as-of folds): come back later. */
  | { readonly code: 'ServiceUnavailable'; readonly retryAfterSeconds: number; readonly detail: string }
  /** The browser code is compiled by `tsc -b` from packages/dashboard/client; a fresh clone must build first. */
  | { readonly code: 'ClientNotBuilt'; readonly file: string };

export type HttpErrorCode = HttpFault['code'];

/** The status each code answers with. */
export const httpStatusOf: { readonly [C in HttpErrorCode]: number } = {
  BadQuery: 400,
  NotFound: 404,
  MethodNotAllowed: 405,
  ServiceUnavailable: 503,
  ClientNotBuilt: 503,
};

const httpMessages: MessageTable<HttpFault> = {
  BadQuery: ({ parameter, detail }) => `query parameter "${parameter}": ${detail}`,
  NotFound: ({ detail }) => detail,
  ServiceUnavailable: ({ detail }) => detail,
  MethodNotAllowed: ({ method }) => `the dashboard is read-only: ${method} is not allowed (use GET)`,
  ClientNotBuilt: ({ file }) =>
    `the dashboard's browser code is not built (${file} is missing): run "npx tsc -b packages/dashboard" (or "npm run build")`,
};

const describeHttpFault = describeFault(httpMessages);

/** The headers an answer of this fault carries beside its status. */
export const httpHeadersOf = (fault: HttpFault): Record<string, string> => {
  switch (fault.code) {
    case 'MethodNotAllowed':
      return { allow: 'GET, HEAD' };
    case 'ServiceUnavailable':
      return { 'retry-after': String(fault.retryAfterSeconds) };
    default:
      return {};
  }
};

/** An error the API answers with its status and `{ error: message }`. */
export class HttpError<F extends HttpFault = HttpFault> extends CodedError<F> {
  override readonly name = 'HttpError';
  readonly status: number;
  constructor(fault: F) {
    super(fault, describeHttpFault(fault));
    this.status = httpStatusOf[fault.code];
  }
}

export const badQuery = (parameter: string, detail: string): HttpError =>
  new HttpError({ code: 'BadQuery', parameter, detail });

export const notFound = (detail: string): HttpError => new HttpError({ code: 'NotFound', detail });
