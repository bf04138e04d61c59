import { booleanFlag, valueFlag } from './argument-parser';

/** Every command takes these two. */
export const universalFlags = {
  help: booleanFlag('show this help'),
  debug: booleanFlag('print the stack trace of an error'),
};
export type UniversalFlags = typeof universalFlags;

export const storeFlag = valueFlag(
  'STORE',
  'the event store: a SQLite FILE (default .teamlog/teamlog.db), :memory:, postgres://user:password@host:port/db, or esdb://host:port (else $TEAMLOG_STORE)',
);
export const jsonFlag = booleanFlag('print one JSON document instead of text');
export const strictFlag = booleanFlag('exit 1 when there are audit findings, team failures or rejected files');
export const asOfFlag = valueFlag(
  'POSITION|TIME',
  'build the views as of a $all position (commit/prepare, or one number) or an ISO 8601 time',
);
export const teamFlag = valueFlag('TEAM', 'only this team (its Lead session id)');
