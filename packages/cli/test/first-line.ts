import type { ChildProcess } from 'node:child_process';

/** The first line a `teamlog serve` child prints on stdout (its URL); rejects if it exits first. */
export const firstLine = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`teamlog serve exited with ${code} before printing its URL`)));
  });
