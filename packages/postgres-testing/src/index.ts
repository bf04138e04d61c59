export * from './postgres-binaries';
export * from './postgres-setup-failed';
export * from './run-program';
export * from './server-user';
export * from './install-postgres';
export * from './free-port';
export * from './throwaway-cluster';
export * from './test-database';
