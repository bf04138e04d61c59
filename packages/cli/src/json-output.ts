import type { CliIo } from './cli-io';

/** Bigints (positions) as decimal strings: JSON has no bigint. */
const replacer = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/** One JSON document on stdout, pretty-printed, ending with a newline. */
export const writeJson = (io: CliIo, value: unknown): void => {
  io.stdout(`${JSON.stringify(value, replacer, 2)}\n`);
};
