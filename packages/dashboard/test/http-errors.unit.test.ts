import { HttpError, httpHeadersOf } from '../src/http-errors';

describe('HttpError', () => {
  it('takes its status from its code, in the one table', () => {
    const statuses = [
      new HttpError({ code: 'BadQuery', parameter: 'seq', detail: 'not a number' }),
      new HttpError({ code: 'NotFound', detail: 'no team t' }),
      new HttpError({ code: 'MethodNotAllowed', method: 'POST' }),
      new HttpError({ code: 'ServiceUnavailable', retryAfterSeconds: 2, detail: 'busy' }),
      new HttpError({ code: 'ClientNotBuilt', file: 'app.js' }),
    ].map((error) => [error.code, error.status]);
    expect(statuses).toEqual([
      ['BadQuery', 400],
      ['NotFound', 404],
      ['MethodNotAllowed', 405],
      ['ServiceUnavailable', 503],
      ['ClientNotBuilt', 503],
    ]);
  });

  it('answers a refused method with Allow and a busy dashboard with Retry-After', () => {
    expect(httpHeadersOf({ code: 'MethodNotAllowed', method: 'PUT' })).toEqual({ allow: 'GET, HEAD' });
    expect(httpHeadersOf({ code: 'ServiceUnavailable', retryAfterSeconds: 2, detail: 'busy' })).toEqual({
      'retry-after': '2',
    });
    expect(httpHeadersOf({ code: 'NotFound', detail: 'x' })).toEqual({});
  });
});
