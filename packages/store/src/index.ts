export * from './global-position';
export * from './stream-name';
export * from './event-store';
export * from './store-errors';
export * from './append-rules';
export * from './catch-up-subscription';
export * from './read-stream-slice';
export * from './in-memory-event-store';
