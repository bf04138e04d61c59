import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';

type DemoFault =
  | { readonly code: 'Missing'; readonly what: string }
  | { readonly code: 'Broken'; readonly cause: unknown };

const messages: MessageTable<DemoFault> = {
  Missing: ({ what }) => `${what} is missing`,
  Broken: () => 'it broke',
};

class DemoError<F extends DemoFault = DemoFault> extends CodedError<F> {
  override readonly name = 'DemoError';
  constructor(fault: F) {
    super(fault, describeFault(messages)(fault));
  }
}

const isDemoError = codedErrorGuard<DemoFault, DemoError>(DemoError);

describe('a coded error', () => {
  it('carries its fault and code, worded by its table', () => {
    const error = new DemoError({ code: 'Missing', what: 'the key' });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'DemoError', code: 'Missing', message: 'the key is missing' });
    expect(error.fault).toEqual({ code: 'Missing', what: 'the key' });
  });

  it("takes a fault's cause as its own", () => {
    const cause = new Error('disk full');
    expect(new DemoError({ code: 'Broken', cause }).cause).toBe(cause);
  });

  it('is narrowed by its guard to its class, and to the codes named when any are', () => {
    const missing = new DemoError({ code: 'Missing', what: 'x' });
    expect(isDemoError(missing)).toBe(true);
    expect(isDemoError(missing, 'Missing', 'Broken')).toBe(true);
    expect(isDemoError(missing, 'Broken')).toBe(false);
    expect(isDemoError(Object.assign(new Error('x'), { code: 'Missing', fault: {} }), 'Missing')).toBe(false);
    if (isDemoError(missing, 'Missing')) expect(missing.fault.what).toBe('x');
  });
});
