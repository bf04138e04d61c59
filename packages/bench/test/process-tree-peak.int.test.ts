import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startTreePeakSampling } from '../src/process-tree-peak';

/** A Node process that starts a second one holding `heldMiB` MiB resident, prints `ready` once both run, and waits to be killed. */
const parentScript = (heldMiB: number): string => `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', ${JSON.stringify(
  `const held = Buffer.alloc(${heldMiB} * 1024 * 1024, 1); process.stdout.write('ready\\n'); setInterval(() => held[0]++, 1000);`,
)}], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.pipe(process.stdout);
process.on('SIGTERM', () => { child.kill('SIGTERM'); process.exit(0); });
`;

const describeOnLinux = existsSync('/proc/self/task') ? describe : describe.skip;

describeOnLinux('the peak RSS of a process tree (skipped where there is no /proc)', () => {
  it('counts the process and the one it started, each with its own peak', async () => {
    const heldMiB = 64;
    const parent = spawn(process.execPath, ['-e', parentScript(heldMiB)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const sampler = startTreePeakSampling(parent.pid as number, 20);
    const exited = new Promise<void>((resolve) => parent.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      parent.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString('utf8').includes('ready')) resolve();
      });
      void exited.then(() => reject(new Error('the processes exited before they were ready')));
    });
    // Wait for a sample that saw both, with a generous limit (a loaded machine samples late).
    for (let waited = 0; waited < 600 && sampler.seen().processes < 2; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const peak = sampler.stop();
    parent.kill('SIGTERM');
    await exited;
    expect(peak.processes).toBe(2);
    expect(peak.peakRssBytes).toBeGreaterThan(heldMiB * 1024 * 1024);
  }, 60_000);
});
