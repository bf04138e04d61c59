import type { SessionId } from '@teamlog/events';
import { TeamLogError } from '@teamlog/team';
import { sessionStream } from '@teamlog/store';
import { ToolError } from '@teamlog/tools';
import { refusalSentence } from '../src/refusal-sentence';

const sentenceOf = (error: unknown) => refusalSentence(error)?.sentence;

describe('refusalSentence', () => {
  it('given refusals the other tests do not reach, then each becomes one sentence', () => {
    const refusals = [
      new TeamLogError({ code: 'SendAborted' }),
      new TeamLogError({ code: 'ConcurrencyExhausted', streamName: sessionStream('s' as SessionId), attempts: 1000 }),
      new TeamLogError({ code: 'InvalidSendRequest', path: 'message[0].text', detail: 'must be a string' }),
      new TeamLogError({ code: 'UnknownTaskOwner', ownerId: 'x' as SessionId }),
      new TeamLogError({ code: 'MemberNotFound', member: 'ghost' }),
      new TeamLogError({
        code: 'MemberSpawnFailed',
        memberName: 'helper',
        sessionId: 's' as SessionId,
        cause: new Error('disk full'),
      }),
      new TeamLogError({ code: 'TeamLogFailed', failure: { seq: 7, type: 'team/task', reason: 'cycle' } }),
      new TeamLogError({ code: 'InvalidMemberName', memberName: 'lead', detail: 'addresses the Lead' }),
    ];
    expect(refusals.map(sentenceOf)).toEqual([
      'The send was cancelled before the target accepted it; nothing was sent.',
      "The target's inbox was too busy to accept the message; nothing was sent, so try again.",
      'The message was refused: message[0].text must be a string; nothing was sent.',
      'The owner "x" is not the Lead or a member of your team.',
      'There is no team member "ghost".',
      'The member "helper" could not be started, so the roster records it as failed.',
      "The team's log has a failing record (seq 7), so no more team changes are accepted.",
      'Member name "lead" addresses the Lead; choose another name.',
    ]);
  });

  it('given a refusal, then the result carries its code, the one the tool result reports', () => {
    expect(refusalSentence(new TeamLogError({ code: 'UnknownTarget', target: 'nobody' }))).toEqual({
      code: 'UnknownTarget',
      sentence: 'There is no team member or session "nobody"; list_members shows who is on the team.',
    });
  });

  it('given an error that is not a refusal, then there is no sentence (the host handles it)', () => {
    expect(refusalSentence(new Error('SQLITE_IOERR'))).toBeUndefined();
    expect(refusalSentence(new ToolError({ code: 'NotATeamSession', sessionId: 's' as SessionId }))).toBeUndefined();
    expect(refusalSentence(new TeamLogError({ code: 'SessionNotFound', sessionId: 's' as SessionId }))).toBeUndefined();
    expect(refusalSentence('a string')).toBeUndefined();
  });
});
