/* libzstd's error codes (zstd_errors.h), as the wasm build reports them: "... with code -N". */
const names: Readonly<Record<number, string>> = {
  1: 'generic error',
  10: 'unknown frame prefix',
  12: 'unsupported version',
  14: 'unsupported frame parameter',
  16: 'window too large',
  20: 'corrupted data',
  22: 'checksum mismatch',
  24: 'bad literals header',
  30: 'corrupted dictionary',
  32: 'wrong dictionary',
  64: 'out of memory',
  70: 'output larger than the frame allows',
  72: 'wrong compressed size',
};

/** A readable description of an error thrown by the zstd library. */
export const describeZstdError = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  const code = /code (-?\d+)/.exec(message)?.[1];
  if (code === undefined) return message;
  const number = Math.abs(Number(code));
  return `${names[number] ?? 'zstd error'} (libzstd error ${number})`;
};
