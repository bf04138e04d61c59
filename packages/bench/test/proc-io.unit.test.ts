import { parseProcIo } from '../src/proc-io';

describe('/proc io fields', () => {
  it('reads the storage bytes read and written', () => {
    const text = [
      'rchar: 5000',
      'wchar: 7000',
      'syscr: 10',
      'syscw: 20',
      'read_bytes: 4096',
      'write_bytes: 1048576',
      'cancelled_write_bytes: 0',
    ].join('\n');
    expect(parseProcIo(text)).toEqual({ readBytes: 4096, writeBytes: 1048576 });
  });

  it('gives undefined when a field is missing', () => {
    expect(parseProcIo('rchar: 5000\nread_bytes: 4096')).toBeUndefined();
  });
});
