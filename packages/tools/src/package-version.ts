import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** This package's version, told to MCP clients; read from package.json, beside both src/ and dist/. */
export const packageVersion = (): string => {
  const manifest: unknown = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  const version =
    typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>).version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
};
