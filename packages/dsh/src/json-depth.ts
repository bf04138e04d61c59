/** How deep a line's JSON may nest (the envelope counts): well below where JSON.stringify or a recursive walk would overflow the stack. */
export const defaultMaxJsonDepth = 512;

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly key: string;
}

const pathOf = (frame: Frame): string => {
  const keys: string[] = [];
  for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent) keys.push(at.key);
  keys.reverse();
  const shown = keys.length > 8 ? [...keys.slice(0, 4), '…', ...keys.slice(-2)] : keys;
  return shown.reduce(
    (path, key) =>
      key.startsWith('[') || key === '…' ? `${path}${key === '…' ? '…' : key}` : path === '' ? key : `${path}.${key}`,
    '',
  );
};

/**
 * The field path at which a parsed JSON value nests deeper than `maxDepth` containers (the root
 * counts as 1), or undefined. Iterative, so it cannot overflow the stack itself. A value of n
 * bytes nests at most n/2 deep, so callers skip lines shorter than twice the limit.
 */
export const tooDeepPath = (value: unknown, maxDepth: number): string | undefined => {
  if (!isContainer(value)) return undefined;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: '' }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const entries: Array<[string, unknown]> = Array.isArray(frame.value)
      ? frame.value.map((item, index) => [`[${index}]`, item])
      : Object.entries(frame.value);
    for (const [key, child] of entries) {
      if (!isContainer(child)) continue;
      const next: Frame = { value: child, depth: frame.depth + 1, parent: frame, key };
      if (next.depth > maxDepth) return `${pathOf(next)} (depth ${next.depth})`;
      stack.push(next);
    }
  }
  return undefined;
};
