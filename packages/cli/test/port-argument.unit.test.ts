import { portArgument } from '../src/port-argument';

describe('portArgument', () => {
  it('uses the default when no --port is given', () => {
    expect(portArgument(undefined, 7420, 'serve')).toBe(7420);
  });

  it.each([
    ['0', 0],
    ['8080', 8080],
    ['65535', 65535],
  ])('accepts %p', (text, port) => {
    expect(portArgument(text, 7420, 'serve')).toBe(port);
  });

  it.each(['65536', '-1', '80.5', 'http', '0x50'])('rejects %p as a usage error', (text) => {
    expect(() => portArgument(text, 7420, 'serve')).toThrow(expect.objectContaining({ code: 'UsageError' }));
  });
});
