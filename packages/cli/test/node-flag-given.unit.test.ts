import { nodeFlagGiven } from '../src/node-flag-given';

describe('nodeFlagGiven', () => {
  it('finds a flag on the command line, with or without a value', () => {
    expect(nodeFlagGiven('--max-semi-space-size', ['--max-semi-space-size=4'], undefined)).toBe(true);
    expect(nodeFlagGiven('--max-semi-space-size', ['--max-semi-space-size', '4'], undefined)).toBe(true);
  });

  it('finds a flag in NODE_OPTIONS among others', () => {
    expect(nodeFlagGiven('--heap-growing-percent', [], '--enable-source-maps  --heap-growing-percent=50')).toBe(true);
  });

  it('reads underscores as dashes, as V8 does', () => {
    expect(nodeFlagGiven('--max-semi-space-size', ['--max_semi_space_size=2'], undefined)).toBe(true);
  });

  it('does not take a flag for another that starts with its name', () => {
    expect(nodeFlagGiven('--max-semi-space-size', ['--max-semi-space-size-x=1'], '--max-old-space-size=64')).toBe(
      false,
    );
    expect(nodeFlagGiven('--heap-growing-percent', [], undefined)).toBe(false);
  });
});
