import { parseHeaderLine } from '../src/header-reader';
import { SessionLogRejected } from '../src/session-log-errors';
import { generationOfFileName, parseSessionFileName, sessionLogFileName } from '../src/session-file-name';

const line = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const base = { type: 'session', id: 's-1', createdAt: 1, delegationDepth: 0 };

const rejection = (file: string, bytes: Buffer | undefined): SessionLogRejected => {
  try {
    parseHeaderLine(file, bytes);
  } catch (error) {
    if (error instanceof SessionLogRejected) return error;
    throw error;
  }
  throw new Error('expected a rejection');
};

describe('session header line', () => {
  it.each([
    [{ ...base, version: 0, seedLength: 4 }, 0, true],
    [{ ...base, version: 1 }, 1, false],
    [{ ...base, version: 2, isSeeded: true }, 2, true],
    [{ ...base, version: 3, isSeeded: false }, 3, false],
    [{ ...base, version: 4, isSeeded: false, origin: 'subagent', parentSession: 'p' }, 4, false],
  ])('reads a V%# header', (header, version, seeded) => {
    const parsed = parseHeaderLine('f.jsonl', line(header));
    expect(parsed.formatVersion).toBe(version);
    expect(parsed.header.isSeeded).toBe(seeded);
    expect(parsed.rawHeader).toEqual(header);
  });

  it('reads the old headers without version or delegationDepth as V0', () => {
    const parsed = parseHeaderLine('session.jsonl', line({ type: 'session', id: 'old', createdAt: 5, cwd: '/x' }));
    expect(parsed.formatVersion).toBe(0);
    expect(parsed.header.preVersion).toBe(true);
  });

  it('reports a newer generation as needing a newer reader, not as corrupt', () => {
    const error = rejection('session.v9.jsonl', line({ ...base, version: 9, isSeeded: false, futureField: 1 }));
    expect(error).toMatchObject({ name: 'NewerFormatVersion', reason: 'newer-format-version' });
    expect(error.reason).toBe('newer-format-version');
    expect(error.message).toMatch(/session\.v9\.jsonl:line 1: version: session format version 9 needs a newer reader/);
  });

  it.each([
    [undefined, /no complete first line/],
    [Buffer.from('not json'), /first line is not JSON/],
    [line({ method: 'session.event', params: {} }), /not a session header/],
    [line([1, 2]), /not a session header/],
    [Buffer.from([0xff, 0xfe, 0x7b]), /not UTF-8/],
  ])('reports a file whose first line is not a session header as not a session log (%#)', (bytes, message) => {
    const error = rejection('notifications.expected.jsonl', bytes);
    expect(error).toMatchObject({ name: 'NotASessionLog', reason: 'not-a-session-log' });
    expect(error.message).toMatch(message);
  });

  it('refuses an invalid header with the field path', () => {
    const error = rejection('session.jsonl', line({ ...base, version: 0, createdAt: -1 }));
    expect(error.reason).toBe('invalid-header');
    expect(error.path).toBe('createdAt');
    expect(error.message).toMatch(/^session\.jsonl:line 1: createdAt: /);
  });

  it('refuses a header whose version contradicts the generation in the file name', () => {
    expect(rejection('/d/session.v2.jsonl', line({ ...base, version: 3, isSeeded: false })).message).toMatch(
      /header says version 3 but the file name says generation 2/,
    );
    expect(parseHeaderLine('/d/child.replay.jsonl', line({ ...base, version: 3, isSeeded: false })).formatVersion).toBe(
      3,
    );
  });
});

describe('session log file names', () => {
  it('parses generation, stem and compression', () => {
    expect(parseSessionFileName('session.jsonl')).toEqual({ stem: 'session', generation: 0, compression: 'none' });
    expect(parseSessionFileName('session.v4.jsonl.zstd')).toEqual({
      stem: 'session',
      generation: 4,
      compression: 'zstd',
    });
    expect(parseSessionFileName('session.1.v4.jsonl')).toEqual({
      stem: 'session.1',
      generation: 4,
      compression: 'none',
    });
    expect(parseSessionFileName('session.lock')).toBeUndefined();
  });

  it('commits only the file names of the harness to a generation (docs/rules.md#layout-generations)', () => {
    expect(generationOfFileName('session.jsonl.zstd')).toBe(0);
    expect(generationOfFileName('session.1.v3.jsonl')).toBe(3);
    expect(generationOfFileName('seed.jsonl')).toBeUndefined();
  });

  it('names export files as the writer does', () => {
    expect(sessionLogFileName(0, 'none')).toBe('session.jsonl');
    expect(sessionLogFileName(3, 'zstd')).toBe('session.v3.jsonl.zstd');
  });
});
