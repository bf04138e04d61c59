import { jsonEqual } from './json-equal';
import type { SessionLogHead } from './session-log-reader';

/** Two reads saw the same header: the same line and the same reading of it (generation, normalised). */
export const sameLogHead = (a: SessionLogHead, b: SessionLogHead): boolean =>
  a.formatVersion === b.formatVersion && a.normalised === b.normalised && jsonEqual(a.rawHeader, b.rawHeader);
