/** What the URL keeps, so a link opens the same view: the team, the session, the moment and the panels' scope. */
export interface PageLocation {
  teamId?: string;
  sessionId?: string;
  /** A `$all` position (`commit/prepare`): the views as of it; absent for the live views. */
  at?: string;
  /** `all`: the audit, legacy mailbox and failures list every team, not the selected one. */
  scope: 'team' | 'all';
}

const names = { teamId: 'team', sessionId: 'session', at: 'at' } as const;

export const readLocation = (search: string): PageLocation => {
  const query = new URLSearchParams(search);
  const location: PageLocation = { scope: query.get('scope') === 'all' ? 'all' : 'team' };
  for (const [key, name] of Object.entries(names) as Array<[keyof typeof names, string]>) {
    const value = query.get(name);
    if (value !== null && value !== '') location[key] = value;
  }
  return location;
};

export const locationSearch = (location: PageLocation): string => {
  const query = new URLSearchParams();
  for (const [key, name] of Object.entries(names) as Array<[keyof typeof names, string]>) {
    const value = location[key];
    if (value !== undefined) query.set(name, value);
  }
  if (location.scope === 'all') query.set('scope', 'all');
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
};
