import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `teamlog --version`: the version of the installed @teamlog/cli, read from its package.json (beside src/ and dist/). */
export const cliVersion = (): string =>
  (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
