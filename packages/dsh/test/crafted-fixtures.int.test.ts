import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { craftedFixtureNames, craftedRoot, writeCraftedFixtures } from './crafted-fixtures';
import { openTempStore } from './real-logs';

describe('crafted fixtures', () => {
  it('the committed files are exactly what the helper builds', async () => {
    const temp = await openTempStore();
    try {
      await writeCraftedFixtures(temp.directory);
      for (const name of await craftedFixtureNames()) {
        expect([name, await fs.readFile(join(temp.directory, name))]).toEqual([
          name,
          await fs.readFile(join(craftedRoot, name)),
        ]);
      }
    } finally {
      await temp.dispose();
    }
  });
});
