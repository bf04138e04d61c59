import { ownModulesAmong } from '../src/own-modules';

describe("counting teamlog's own loaded files", () => {
  it('counts the files of our packages and leaves third-party modules out', () => {
    expect(
      ownModulesAmong([
        '/repo/packages/bench/dist/bench-child.js',
        '/repo/packages/events/dist/index.js',
        '/repo/packages/store/src/event-store.ts',
        '/repo/node_modules/fp-ts/lib/Either.js',
        '/repo/node_modules/better-sqlite3/packages/x/dist/y.js',
      ]),
    ).toBe(3);
  });
});
