import type { ServerResponse } from 'node:http';

/** The page loads only its own files: no inline script, no third-party origin. */
const contentSecurityPolicy =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

export const sendBody = (
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  cache: 'no-store' | 'no-cache',
): void => {
  response.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    'content-security-policy': contentSecurityPolicy,
  });
  response.end(body);
};

export const sendJson = (response: ServerResponse, status: number, body: object): void =>
  sendBody(response, status, 'application/json; charset=utf-8', JSON.stringify(body), 'no-store');

export const sendError = (
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void => {
  Object.entries(headers).forEach(([name, value]) => response.setHeader(name, value));
  sendJson(response, status, { error: message });
};
