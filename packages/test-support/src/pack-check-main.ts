import { resolve } from 'node:path';
import { checkProductPackages } from './product-pack-check';
import { tarballSizeReport } from './tarball-problems';

/*
 * `npm run pack:check`: what `npm pack` would put in each product tarball (after a build), its
 * size, and every problem; exit 1 when there is one.
 */

const repositoryRoot = resolve(__dirname, '..', '..', '..');

const main = async (): Promise<number> => {
  const check = await checkProductPackages(repositoryRoot);
  for (const line of tarballSizeReport(check.tarballs)) console.log(line);
  for (const problem of check.problems) console.error(problem);
  console.log(
    check.problems.length === 0
      ? `${check.tarballs.length} product tarballs, no problem`
      : `${check.problems.length} problems`,
  );
  return check.problems.length === 0 ? 0 : 1;
};

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 4;
  },
);
