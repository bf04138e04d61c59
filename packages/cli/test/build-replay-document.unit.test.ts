import { isRight } from 'fp-ts/Either';
import type { SessionId } from '@teamlog/events';
import { buildReplayDocument, replayTotals, sessionJson } from '../src/build-replay-document';
import { ReplayDocument } from '../src/replay-document';
import { importedResult, rejectedResult, sampleAudit, sampleInbox, sampleTeam } from './sample-documents';

describe('sessionJson', () => {
  it('lists an imported session with the id its streams are named after and the id the log states', () => {
    const json = sessionJson(
      importedResult({
        sessionId: '{{session:1}}' as SessionId,
        streamSessionId: '{{session:1}}@dir' as SessionId,
        normalised: true,
        scope: 'dir',
      }),
    );
    expect(json).toMatchObject({
      id: '{{session:1}}@dir',
      statedId: '{{session:1}}',
      file: 'logs/a/session.jsonl',
      formatVersion: 0,
      events: 10,
      recovery: null,
      scope: 'dir',
    });
    expect(json.rejected).toBeUndefined();
  });

  it('keeps the recovery reason and the kept events of a recovered log', () => {
    const json = sessionJson(
      importedResult({
        events: 5,
        recovery: { reason: 'torn-tail', line: 7, detail: 'torn', keptEvents: 5, droppedLines: 1 },
      }),
    );
    expect(json.recovery).toEqual({ reason: 'torn-tail', keptEvents: 5, line: 7, detail: 'torn', droppedLines: 1 });
  });

  it('lists a file rejected as a whole with its reason, message, line and field path, and null where it has no header', () => {
    const json = sessionJson(
      rejectedResult(
        'bad.v3.jsonl',
        'invalid-event',
        'bad.v3.jsonl:line 2: data.member.phase: expected MemberPhase, got 7',
        2,
        'data.member.phase',
      ),
    );
    expect(json).toMatchObject({ id: null, formatVersion: null, events: 0, recovery: null, rejected: 'invalid-event' });
    expect(json.rejection).toEqual({
      message: 'bad.v3.jsonl:line 2: data.member.phase: expected MemberPhase, got 7',
      line: 2,
      path: 'data.member.phase',
    });
  });
});

describe('replayTotals', () => {
  it('counts files that are not session logs apart from rejected ones', () => {
    const totals = replayTotals([
      importedResult({ appended: 3 }),
      importedResult({
        appended: 0,
        recovery: { reason: 'seq-gap', line: 3, detail: '', keptEvents: 1, droppedLines: 2 },
      }),
      rejectedResult('x.jsonl', 'damaged-history', 'x'),
      rejectedResult('notes.jsonl', 'not-a-session-log', 'n'),
    ]);
    expect(totals).toEqual({ files: 4, imported: 2, rejected: 1, notSessionLogs: 1, recovered: 1, appended: 3 });
  });
});

describe('buildReplayDocument', () => {
  it('builds a document the contract codec accepts, with the views beside the sessions', () => {
    const document = buildReplayDocument({
      results: [importedResult(), rejectedResult('x.jsonl', 'corrupt-frame', 'x: checksum mismatch')],
      view: { teams: [], inbox: [], audit: [] },
      store: ':memory:',
      position: null,
      asOf: '5/5',
    });
    expect(isRight(ReplayDocument.decode(JSON.parse(JSON.stringify(document))))).toBe(true);
    expect(document.asOf).toBe('5/5');
    expect(document.sessions.map((session) => session.rejected)).toEqual([undefined, 'corrupt-frame']);
  });

  it('the codec rejects a document whose legacy message status is not delivered or undelivered', () => {
    const document = {
      sessions: [],
      inbox: sampleInbox,
      audit: sampleAudit,
      store: 's',
      position: null,
      totals: replayTotals([]),
      teams: [{ ...sampleTeam, legacyMessages: [{ ...sampleTeam.legacyMessages[0], status: 'lost' }] }],
    };
    expect(isRight(ReplayDocument.decode(document))).toBe(false);
  });
});
