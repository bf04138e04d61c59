import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * Rejections are data: a tagged union of codes per aggregate, and one error type at each boundary
 * that carries the code. This counts the error classes of the product packages (every class whose
 * chain of `extends` reaches a built-in error), so a new exception class per case shows up here.
 */

const limit = 19;
const root = join(__dirname, '..', '..');
const builtInErrors = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'AggregateError']);

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });

interface ClassDecl {
  readonly name: string;
  readonly base: string;
  readonly where: string;
}

const classPattern = /\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+([\w.]+)/g;

const classesIn = (file: string): ClassDecl[] =>
  [...readFileSync(file, 'utf8').matchAll(classPattern)].map((match) => ({
    name: match[1] as string,
    base: (match[2] as string).split('.').pop() as string,
    where: relative(root, file),
  }));

const productClasses = (): ClassDecl[] => {
  const packages = join(root, 'packages');
  return readdirSync(packages)
    .map((name) => join(packages, name, 'src'))
    .filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory() === true)
    .flatMap(sourceFiles)
    .flatMap(classesIn);
};

/** The classes whose `extends` chain reaches a built-in error, following the repo's own classes. */
export const errorClasses = (classes: readonly ClassDecl[]): ClassDecl[] => {
  const byName = new Map(classes.map((decl) => [decl.name, decl]));
  const isError = (decl: ClassDecl, seen: Set<string>): boolean => {
    if (builtInErrors.has(decl.base)) return true;
    const parent = byName.get(decl.base);
    if (parent === undefined || seen.has(parent.name)) return false;
    return isError(parent, new Set([...seen, decl.name]));
  };
  return classes.filter((decl) => isError(decl, new Set()));
};

/**
 * The error classes that are not a boundary's coded error: the base itself, decoding and log-file
 * rejections (named by a path and a reason), and the few of test support, the bench and the
 * dashboard server that no caller tells apart by case.
 */
const uncoded = new Set([
  'CodedError',
  'DecodeError',
  'SessionLogRejected',
  'PostgresSetupFailed',
  'InvalidBenchOption',
  'ChildMeasurementFailed',
  'DashboardListenFailed',
  'InvalidMessageFlow',
]);

describe('error classes across the packages', () => {
  it(`are at most ${limit}: refusals are codes on one error type per boundary, not a class each`, () => {
    const found = errorClasses(productClasses());
    const listing = found.map((decl) => `${decl.where}: ${decl.name} extends ${decl.base}`).join('\n');
    if (found.length > limit) throw new Error(`${found.length} error classes, over ${limit}:\n${listing}`);
    expect(found.length).toBeLessThanOrEqual(limit);
  });

  it('extend CodedError (a fault whose code names the case) unless listed as uncoded', () => {
    const stray = errorClasses(productClasses()).filter(
      (decl) => decl.base !== 'CodedError' && !uncoded.has(decl.name),
    );
    expect(stray.map((decl) => `${decl.where}: ${decl.name} extends ${decl.base}`)).toEqual([]);
  });

  it('counts a class as an error class through its chain of extends, and nothing else', () => {
    const decl = (name: string, base: string): ClassDecl => ({ name, base, where: 'x.ts' });
    const found = errorClasses([
      decl('Boundary', 'Error'),
      decl('Narrower', 'Boundary'),
      decl('Codec', 'Type'),
      decl('Views', 'TeamlogViews'),
      decl('Range', 'RangeError'),
    ]);
    expect(found.map((entry) => entry.name)).toEqual(['Boundary', 'Narrower', 'Range']);
  });
});
