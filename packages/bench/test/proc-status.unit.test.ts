import { procStatusBytes } from '../src/proc-status';

const status = [
  'Name:\tnode',
  'VmPeak:\t 1200000 kB',
  'VmHWM:\t  181234 kB',
  'VmRSS:\t  150000 kB',
  'Threads:\t11',
].join('\n');

describe('/proc status fields', () => {
  it('reads the peak and current resident set size in bytes', () => {
    expect(procStatusBytes(status, 'VmHWM')).toBe(181234 * 1024);
    expect(procStatusBytes(status, 'VmRSS')).toBe(150000 * 1024);
  });

  it('gives undefined when the field is missing', () => {
    expect(procStatusBytes('Name:\tkthreadd\nState:\tS (sleeping)', 'VmHWM')).toBeUndefined();
  });
});
