import { dirname } from 'node:path';
import { parseSessionFileName } from './session-file-name';

/** Two recorded file names of one log: the same directory and stem, whatever the generation. */
export const sameLog = (a: string, b: string): boolean => {
  const stemOf = (file: string): string =>
    `${dirname(file)}/${parseSessionFileName(file.slice(dirname(file).length + 1))?.stem ?? file}`;
  return stemOf(a) === stemOf(b);
};
