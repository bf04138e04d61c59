export * from './sqlite-migrations';
export * from './sqlite-event-store';
