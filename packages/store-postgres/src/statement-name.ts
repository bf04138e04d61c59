import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/**
 * A name for a statement, derived from its text: `pg` prepares a named statement once per
 * connection and then only binds and executes it, which saves the server a parse and plan per call.
 */
export const statementName = (sql: string): string => {
  let name = names.get(sql);
  if (name === undefined) {
    name = `teamlog_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    names.set(sql, name);
  }
  return name;
};
