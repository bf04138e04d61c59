import { spawn } from 'node:child_process';

export interface ProgramResult {
  readonly code: number | null;
  readonly output: string;
}

/** Run a program to its end, collecting stdout and stderr together (never throws for a non-zero exit). */
export const runProgram = (
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd?: string,
): Promise<ProgramResult> =>
  new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => resolve({ code: null, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });

/** The last lines of a program's output, for an error message. */
export const tailOf = (output: string, lines = 12): string => output.trim().split('\n').slice(-lines).join('\n');
