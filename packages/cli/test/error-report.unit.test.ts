import { SqliteStoreError } from '@teamlog/store-sqlite';
import { ProjectionError } from '@teamlog/projections';
import { TeamLogError } from '@teamlog/team';
import { DecodeError } from '@teamlog/events';
import { SessionLogRejected, exportTargetRefused, sessionNotExportable } from '@teamlog/dsh';
import { storeFailure, streamName, wrongExpectedVersion } from '@teamlog/store';
import { badInput, usageError } from '../src/cli-errors';
import { reportError } from '../src/error-report';
import { ExitCode } from '../src/exit-code';

describe('reportError', () => {
  it("exits 2 for a usage error and points at the command's help", () => {
    expect(reportError(usageError('replay: unknown flag --frob', 'replay'))).toEqual({
      exitCode: ExitCode.usage,
      line: 'replay: unknown flag --frob (see "teamlog replay --help")',
    });
    expect(reportError(usageError('unknown command "x"')).line).toContain('"teamlog --help"');
  });

  it('exits 3 for bad input, naming file, line and field path', () => {
    const report = reportError(
      badInput('expected MemberPhase, got 7', { file: 'a.v3.jsonl', line: 2, path: 'data.member.phase' }),
    );
    expect(report).toEqual({
      exitCode: ExitCode.badInput,
      line: 'a.v3.jsonl:line 2: data.member.phase: expected MemberPhase, got 7',
    });
  });

  it('exits 3 for a rejected session log and for a decode error', () => {
    expect(
      reportError(new SessionLogRejected('invalid-event', 'a.jsonl', 'bad', { line: 3, path: 'data.x' })).exitCode,
    ).toBe(ExitCode.badInput);
    expect(reportError(new DecodeError('data.x', 'string', 'expected string')).exitCode).toBe(ExitCode.badInput);
  });

  it('maps a coded error through the code table: a corrupt view row is bad input (3), a team refusal a failure named by its code (4)', () => {
    const corrupt = new ProjectionError({
      code: 'CorruptViewRow',
      file: 'v.db',
      table: 't',
      row: 'r',
      detail: 'x: bad',
    });
    expect(reportError(corrupt)).toEqual({ exitCode: ExitCode.badInput, line: corrupt.message });
    const refused = reportError(new TeamLogError({ code: 'UnknownTarget', target: 'nobody' }));
    expect(refused.exitCode).toBe(ExitCode.failure);
    expect(refused.line).toMatch(/^UnknownTarget: no team member or session "nobody"/);
    const newer = new SqliteStoreError({ code: 'SchemaTooNew', file: 's.db', fileVersion: 9, knownVersion: 2 });
    expect(reportError(newer)).toEqual({ exitCode: ExitCode.badInput, line: newer.message });
  });

  it('exits 3 for an export the session or the target refuses, on its one line', () => {
    const target = exportTargetRefused('out/x.jsonl', 'it is a directory; export writes only a regular file');
    expect(reportError(target)).toEqual({ exitCode: ExitCode.badInput, line: target.message });
    expect(reportError(sessionNotExportable('s-1', 'it has no header')).exitCode).toBe(ExitCode.badInput);
  });

  it("names a store refusal by its code, as the store's class of each case named it", () => {
    const conflict = reportError(wrongExpectedVersion(streamName('session-a'), 1n, 2n));
    expect(conflict.exitCode).toBe(ExitCode.failure);
    expect(conflict.line).toMatch(/^WrongExpectedVersion: stream session-a: expected revision 1, actual 2 /);
  });

  it('exits 4 for a store that failed (a server that stayed away), on one line without the stack hint', () => {
    const failure = storeFailure(
      'append on postgres://teamlog:***@db/teamlog failed: connect ECONNREFUSED\n127.0.0.1:5432',
    );
    expect(reportError(failure)).toEqual({
      exitCode: ExitCode.failure,
      line: 'append on postgres://teamlog:***@db/teamlog failed: connect ECONNREFUSED 127.0.0.1:5432',
    });
  });

  it('exits 4 for anything else, on one line, and says how to see the stack', () => {
    const report = reportError(new TypeError('disk full\n  while writing'));
    expect(report.exitCode).toBe(ExitCode.failure);
    expect(report.line).toBe('TypeError: disk full while writing (run with --debug for the stack trace)');
    expect(report.line).not.toContain('\n');
  });
});
