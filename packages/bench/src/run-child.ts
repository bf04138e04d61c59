import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { isLeft } from 'fp-ts/Either';
import { decodeWith } from '@teamlog/events';
import { type ChildRequest, ChildResult, resultPrefix } from './child-protocol';

export class ChildMeasurementFailed extends Error {
  override readonly name = 'ChildMeasurementFailed';
  constructor(
    readonly request: ChildRequest,
    detail: string,
  ) {
    super(`the ${request.case} measurement failed: ${detail}`);
  }
}

/**
 * The measuring child as the CLI ships its code: one esbuild bundle of the packages' sources
 * (scripts/bundle-bench-child.mjs), so calls between packages are direct and a run compiles one
 * file. Every case runs it, the baselines too. From `src/` or `dist/` alike.
 */
export const benchChildScript = join(__dirname, '..', 'dist', 'bundle', 'bench-child.js');

/** What the bench's report says its children run. */
export const benchChildDescription =
  "one esbuild bundle of the packages' sources, as the CLI ships (packages/bench/dist/bundle/bench-child.js), baselines included";

/** The in-memory replay keeps every event: let its heap grow past the default limit. Others run with Node's defaults. */
const heapFlagsFor = (request: ChildRequest): string[] =>
  request.case === 'replay' && request.store === 'memory' ? ['--max-old-space-size=8192'] : [];

/** The result line among a child's stdout lines, decoded. */
export const resultOf = (request: ChildRequest, stdout: string): ChildResult => {
  const line = stdout.split('\n').find((text) => text.startsWith(resultPrefix));
  if (line === undefined) throw new ChildMeasurementFailed(request, 'the child printed no result');
  const decoded = decodeWith(ChildResult, 'result')(JSON.parse(line.slice(resultPrefix.length)));
  if (isLeft(decoded)) throw new ChildMeasurementFailed(request, decoded.left.message);
  return decoded.right;
};

/** Run one measurement in a fresh Node process (extra `nodeArgs` such as `--cpu-prof`). */
export const runChild = (request: ChildRequest, nodeArgs: readonly string[] = []): Promise<ChildResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...heapFlagsFor(request), ...nodeArgs, benchChildScript, JSON.stringify(request)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(
          new ChildMeasurementFailed(
            request,
            `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-8).join('\n')}`,
          ),
        );
        return;
      }
      try {
        resolve(resultOf(request, stdout));
      } catch (error) {
        reject(error);
      }
    });
  });
