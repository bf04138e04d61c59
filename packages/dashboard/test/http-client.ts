export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly headers: Headers;
  readonly text: string;
}

export const request = async (url: string, init: RequestInit = {}): Promise<Answer> => {
  const response = await fetch(url, init);
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: response.headers,
    text: await response.text(),
  };
};

/** GET a JSON answer of the dashboard API, whatever its status. */
export const getJson = async <T = Record<string, unknown>>(
  url: string,
): Promise<{ readonly status: number; readonly body: T; readonly contentType: string }> => {
  const answer = await request(url);
  return { status: answer.status, contentType: answer.contentType, body: JSON.parse(answer.text) as T };
};
