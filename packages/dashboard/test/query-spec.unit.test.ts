import { isLeft, isRight } from 'fp-ts/Either';
import type { HttpError } from '../src/http-errors';
import { BooleanParam, SeqParam, SessionIdParam } from '../src/query-codecs';
import { decodeQuery, querySpec } from '../src/query-spec';

const spec = querySpec({ sessionId: SessionIdParam }, { seq: SeqParam, peerOnly: BooleanParam });
const none = querySpec({}, {});

const refusal = (query: string, withSpec: typeof spec | typeof none = spec): HttpError => {
  const decoded = decodeQuery(withSpec, new URLSearchParams(query));
  if (isRight(decoded)) throw new Error(`expected ?${query} to be refused`);
  return decoded.left;
};

describe('decodeQuery', () => {
  it('decodes required and optional parameters with their codecs', () => {
    const decoded = decodeQuery(spec, new URLSearchParams('sessionId=s-1&seq=-1&peerOnly=true'));
    expect(decoded).toEqual({ _tag: 'Right', right: { sessionId: 's-1', seq: -1, peerOnly: true } });
  });

  it('leaves absent optional parameters out', () => {
    const decoded = decodeQuery(spec, new URLSearchParams('sessionId=s-1'));
    expect(isRight(decoded) && Object.keys(decoded.right)).toEqual(['sessionId']);
  });

  it('refuses a missing required parameter, naming it', () => {
    const error = refusal('seq=3');
    expect(error.fault).toEqual({
      code: 'BadQuery',
      parameter: 'sessionId',
      detail: 'missing; this route requires it',
    });
    expect(error.message).toBe('query parameter "sessionId": missing; this route requires it');
    expect(error.status).toBe(400);
  });

  it('refuses an unknown parameter and lists the ones the route takes', () => {
    expect(refusal('sessionId=s-1&sesionId=s-2').message).toBe(
      'query parameter "sesionId": unknown parameter; this route takes sessionId, seq, peerOnly',
    );
    expect(refusal('x=1', none).message).toBe('query parameter "x": unknown parameter; this route takes no parameters');
  });

  it('refuses a repeated parameter rather than picking one', () => {
    expect(refusal('sessionId=a&sessionId=b').message).toBe('query parameter "sessionId": given more than once');
  });

  it('refuses a malformed value with the codec’s reason and the parameter’s name', () => {
    expect(refusal('sessionId=s-1&seq=first').message).toBe(
      'query parameter "seq": expected an integer seq ≥ -1, got "first"',
    );
    expect(refusal('sessionId=&seq=1').message).toBe(
      'query parameter "sessionId": expected a session id (1 to 512 characters), got ""',
    );
  });

  it('accepts an empty query for a route without parameters', () => {
    expect(isLeft(decodeQuery(none, new URLSearchParams('')))).toBe(false);
  });
});
