import { createWriteStream, promises as fs, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { type CorpusSummary, type TeamCorpusOptions, teamCorpus } from './team-corpus';

export interface WrittenCorpus {
  readonly root: string;
  readonly files: readonly string[];
  readonly bytes: number;
  readonly summary: CorpusSummary;
}

/** Where a corpus session's log goes: one directory per session, as the harness lays them out (docs/rules.md#layout-generations). */
export const corpusLogFile = (root: string, sessionId: string): string =>
  join(root, '--bench-project--', sessionId, 'session.v4.jsonl');

const flushBytes = 1024 * 1024;

class SessionFile {
  private pending: string[] = [];
  private pendingBytes = 0;

  constructor(
    readonly file: string,
    private readonly out: WriteStream,
  ) {}

  /** Buffer a line; true when the buffer is due for `flush`. */
  add(line: string): boolean {
    this.pending.push(line);
    this.pendingBytes += line.length;
    return this.pendingBytes >= flushBytes;
  }

  flush(): Promise<void> {
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    return new Promise((resolve, reject) =>
      this.out.write(chunk, (error) => (error === null || error === undefined ? resolve() : reject(error))),
    );
  }

  /** Flush, close, and sync to disk: writeback of the corpus must not compete with the measurements. */
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    const handle = await fs.open(this.file, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

/** Write the corpus under `root` (raw JSONL, one file per session); returns what was written. */
export const writeTeamCorpus = async (root: string, options: TeamCorpusOptions): Promise<WrittenCorpus> => {
  const files = new Map<string, SessionFile>();
  let bytes = 0;
  const corpus = teamCorpus(options);
  for (let next = corpus.next(); ; next = corpus.next()) {
    if (next.done === true) {
      for (const file of files.values()) await file.close();
      return { root, files: [...files.values()].map((file) => file.file), bytes, summary: next.value };
    }
    const { sessionId, line } = next.value;
    let file = files.get(sessionId);
    if (file === undefined) {
      const path = corpusLogFile(root, sessionId);
      await fs.mkdir(join(path, '..'), { recursive: true });
      file = new SessionFile(path, createWriteStream(path));
      files.set(sessionId, file);
    }
    const text = `${JSON.stringify(line)}\n`;
    bytes += Buffer.byteLength(text);
    if (file.add(text)) await file.flush();
  }
};
