import { usageError } from './cli-errors';

/** `--port N`: 0 (any free port) to 65535. */
export const portArgument = (text: string | undefined, fallback: number, command: string): number => {
  if (text === undefined) return fallback;
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535)
    throw usageError(`${command}: --port expects a number from 0 to 65535, got "${text}"`, command);
  return port;
};
