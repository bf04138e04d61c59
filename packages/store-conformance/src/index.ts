export * from './collect';
export * from './test-events';
export * from './event-store-conformance';
export * from './migration-fixture';
