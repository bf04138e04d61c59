export * from './team-failure';
export * from './task-graph';
export * from './team-state';
export * from './session-lifecycle';
export * from './inbox-state';
