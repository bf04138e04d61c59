import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tour } from './library-tour';
import { repoRoot, temporaryDirectory } from './run-teamlog';

describe('the library tour of README.md', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  it('is in README.md exactly as the test suite compiles it', () => {
    const source = readFileSync(join(__dirname, 'library-tour.ts'), 'utf8');
    const example = source.slice(
      source.indexOf('// README:begin\n') + '// README:begin\n'.length,
      source.indexOf('// README:end'),
    );
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8')).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it("imports the logs, shows the team with its undelivered legacy message, and sends a message the target's inbox holds", async () => {
    const printed: string[] = [];
    const log = jest
      .spyOn(console, 'log')
      .mockImplementation(
        (...parts: unknown[]) =>
          void printed.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ')),
      );
    try {
      await tour(join(directory.path, 'tour.db'), join(repoRoot, 'fixtures', 'synthetic', 'v0-mailbox'));
    } finally {
      log.mockRestore();
    }
    expect(printed[0]).toMatch(/^3 logs imported, [1-9]\d* events appended$/);
    expect(printed[1]).toBe('v0-lead ["reviewer","writer","tester"] 1 undelivered');
    // The reviewer has not started: the accepted message waits, pending, in its inbox.
    const messageId = printed[2]?.split(' ')[0];
    expect(printed[2]).toBe(`${messageId} ["${messageId} pending"]`);
  });
});
