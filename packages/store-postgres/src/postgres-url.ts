/** The connection-string schemes of libpq and `pg`: `postgres://` and `postgresql://`. */
export const isPostgresUrl = (text: string): boolean => /^postgres(ql)?:\/\//i.test(text.trim());

const credentials = /^([a-z+]+:\/\/[^:@/]*):([^@/]*)@/i;
/** libpq and `pg` also take the password as a query parameter. */
const passwordParameter = /([?&]password=)([^&#]*)/gi;

/** The URL with any password replaced, for messages and logs. */
export const redactPostgresUrl = (url: string): string =>
  url.replace(credentials, '$1:***@').replace(passwordParameter, '$1***');

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A text that may quote the password (as written in the URL, or decoded), with it replaced. */
export const redactPassword = (text: string, url: string): string => {
  const passwords = [
    credentials.exec(url.trim())?.[2],
    ...[...url.matchAll(passwordParameter)].map((match) => match[2]),
  ];
  const secrets = passwords.flatMap((password) =>
    password === undefined || password === '' ? [] : [password, decoded(password)],
  );
  return secrets.reduce((redacted, secret) => redacted.split(secret).join('***'), text);
};

/** What to print for a URL: the password gone from it (the user part and any `password=` parameter). */
export const describePostgresUrl = (url: string): string => redactPostgresUrl(url.trim());
