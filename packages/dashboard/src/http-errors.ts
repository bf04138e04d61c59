/** An error the API answers with its status and `{ error: message }`. */
export abstract class HttpError extends Error {
  abstract readonly status: number;
}

/** A query parameter is missing, unknown, repeated or malformed. */
export class BadQuery extends HttpError {
  override readonly name = 'BadQuery';
  readonly status = 400;
  constructor(
    readonly parameter: string,
    detail: string,
  ) {
    super(`query parameter "${parameter}": ${detail}`);
  }
}

export class NotFound extends HttpError {
  override readonly name = 'NotFound';
  readonly status = 404;
}

export class MethodNotAllowed extends HttpError {
  override readonly name = 'MethodNotAllowed';
  readonly status = 405;
  constructor(readonly method: string) {
    super(`the dashboard is read-only: ${method} is not allowed (use GET)`);
  }
}

/** Too much work is queued (as-of folds): come back later. */
export class ServiceUnavailable extends HttpError {
  override readonly name = 'ServiceUnavailable';
  readonly status = 503;
  constructor(
    readonly retryAfterSeconds: number,
    detail: string,
  ) {
    super(detail);
  }
}
