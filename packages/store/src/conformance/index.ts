export * from './event-store-conformance';
