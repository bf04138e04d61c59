/** An API answer other than 200, with the server's `{ error }` message. */
export class ApiFailed extends Error {
  override readonly name = 'ApiFailed';
  constructor(
    readonly path: string,
    readonly status: number,
    message: string,
  ) {
    super(`${path}: ${status} ${message}`);
  }
}

export const apiPath = (path: string, params: Readonly<Record<string, string | undefined>> = {}): string => {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
};

const errorOf = async (response: Response): Promise<string> => {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string')
      return body.error;
  } catch {
    // Not JSON: the status says enough.
  }
  return response.statusText;
};

export const getJson = async <T>(path: string): Promise<T> => {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new ApiFailed(path, response.status, await errorOf(response));
  return (await response.json()) as T;
};

export const getText = async (path: string): Promise<string> => {
  const response = await fetch(path);
  if (!response.ok) throw new ApiFailed(path, response.status, await errorOf(response));
  return response.text();
};
