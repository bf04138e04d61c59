import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { bundleLocator } from '../src/bundled-frames';
import { benchChildScript, runChild } from '../src/run-child';
import { tempDirectory } from './temp-directory';

// Needs `npm run build` (as every test that runs a built program): the child is the built bundle.
describe('the bench child', () => {
  const temp = tempDirectory();
  afterAll(() => temp.remove());

  it('runs as one bundle, as the CLI ships, so it loads one file of our own packages', async () => {
    const root = join(temp.path, 'root');
    mkdirSync(join(root, 's-1'), { recursive: true });
    const header = { type: 'session', version: 4, id: 's-1', createdAt: 0, isSeeded: false, delegationDepth: 0 };
    writeFileSync(join(root, 's-1', 'session.v4.jsonl'), `${JSON.stringify(header)}\n`);

    const result = await runChild({ case: 'parse-baseline', root });

    expect(result.case).toBe('parse-baseline');
    expect(result.detail.ownModules).toBe(1);
    expect(benchChildScript).toMatch(/[\\/]packages[\\/]bench[\\/]dist[\\/]bundle[\\/]bench-child\.js$/);
  });

  it("puts a frame of the bundle back at its source file, for the bench's profiles", () => {
    const lineNumber = readFileSync(benchChildScript, 'utf8')
      .split('\n')
      .findIndex((line) => line.startsWith('var parseEveryLine = '));
    const place = bundleLocator(benchChildScript)(`file://${benchChildScript}`, lineNumber, 4);
    expect(place?.url).toMatch(/\/packages\/bench\/src\/json-parse-baseline\.ts$/);
  });
});
