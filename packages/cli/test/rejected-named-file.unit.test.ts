import { rejectedNamedFile } from '../src/rejected-named-file';
import { importedResult, rejectedResult } from './sample-documents';

describe('rejectedNamedFile', () => {
  const rejected = rejectedResult(
    'bad.v3.jsonl',
    'invalid-event',
    'bad.v3.jsonl:line 2: data.member.phase: expected MemberPhase, got 7',
    2,
    'data.member.phase',
  );

  it('is bad input when a file the person named was rejected, with the rejection as the message', () => {
    const error = rejectedNamedFile([
      { result: importedResult(), named: true },
      { result: rejected, named: true },
    ]);
    expect(error).toMatchObject({ code: 'BadInput' });
    expect(error?.message).toBe('bad.v3.jsonl:line 2: data.member.phase: expected MemberPhase, got 7');
  });

  it('counts further rejected named files on the same line', () => {
    expect(
      rejectedNamedFile([
        { result: rejected, named: true },
        { result: rejected, named: true },
      ])?.message,
    ).toMatch(/\(and 1 more rejected files\)$/);
  });

  it('is nothing when the rejected file was found inside a directory', () => {
    expect(rejectedNamedFile([{ result: rejected, named: false }])).toBeUndefined();
  });
});
