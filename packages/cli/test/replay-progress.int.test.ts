import { join } from 'node:path';
import { ExitCode } from '../src/exit-code';
import { runCli } from '../src/run-cli';
import { capturedIo } from './captured-io';
import { repoRoot, temporaryDirectory } from './run-teamlog';

describe('the import progress bar', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());
  const logs = join(repoRoot, 'fixtures', 'synthetic', 'v0-mailbox');

  it('is drawn on stderr, in place, file by file, when stderr is a terminal, and erased at the end', async () => {
    const io = capturedIo({ stderrIsTerminal: true, stderrColumns: 100, cwd: directory.path });
    expect(await runCli(['replay', logs, '--store', 'bar.db', '--json'], io)).toBe(ExitCode.ok);
    // cli-progress moves the cursor to column 1 before each frame (at most 25 frames a second, the last one always).
    const frames = io.err().split('\u001b[1G').slice(1);
    expect(frames[0]).toMatch(/^importing \[\.{24}\] 0\/3\u001b\[0K$/);
    const counts = frames
      .map((frame) => /\] (\d)\/3/.exec(frame)?.[1])
      .filter((count) => count !== undefined)
      .map(Number);
    expect(counts).toEqual([...counts].sort());
    expect(frames).toContainEqual(expect.stringMatching(/^importing \[#{24}\] 3\/3 .*session\.jsonl\u001b\[0K/));
    expect(frames[frames.length - 1]).toBe('\u001b[2K');
    expect(frames.every((frame) => frame.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/g, '').length <= 99)).toBe(true);
    // stdout stays one clean JSON document.
    expect(JSON.parse(io.out()).sessions).toHaveLength(3);
  });

  it('is silent when stderr is not a terminal', async () => {
    const io = capturedIo({ stderrIsTerminal: false, cwd: directory.path });
    expect(await runCli(['import', logs, '--store', 'quiet.db'], io)).toBe(ExitCode.ok);
    expect(io.err()).toBe('');
    expect(io.out()).toContain('3 imported');
  });
});
