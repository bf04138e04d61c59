export * from './decider';
export * from './task-graph';
export * from './session-lifecycle';
export * from './relayed-message';
export * from './team';
export * from './inbox';
export * from './session';
export * from './team-message-route';
