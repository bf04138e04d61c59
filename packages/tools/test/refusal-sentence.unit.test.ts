import type { SessionId } from '@teamlog/events';
import {
  ConcurrencyExhausted,
  InvalidSendRequest,
  MemberNotFound,
  MemberSpawnFailed,
  SendAborted,
  SendRejected,
  TeamLogFailed,
  UnknownTaskOwner,
} from '@teamlog/team';
import { sessionStream } from '@teamlog/store';
import { NotATeamSession } from '@teamlog/tools';
import { refusalSentence } from '../src/refusal-sentence';

class FutureRefusal extends SendRejected {
  override readonly name = 'FutureRefusal';
  constructor() {
    super('the target is on holiday\nuntil Monday');
  }
}

describe('refusalSentence', () => {
  it('given refusals the other tests do not reach, then each becomes one sentence', () => {
    const refusals = [
      new SendAborted(),
      new ConcurrencyExhausted(sessionStream('s' as SessionId), 1000),
      new InvalidSendRequest('message[0].text', 'must be a string'),
      new UnknownTaskOwner('x' as SessionId),
      new MemberNotFound('ghost'),
      new MemberSpawnFailed('helper', 's' as SessionId, new Error('disk full')),
      new TeamLogFailed({ seq: 7, type: 'team/task', reason: 'cycle' }),
    ];
    expect(refusals.map(refusalSentence)).toEqual([
      'The send was cancelled before the target accepted it; nothing was sent.',
      "The target's inbox was too busy to accept the message; nothing was sent, so try again.",
      'The message was refused: message[0].text must be a string; nothing was sent.',
      'The owner "x" is not the Lead or a member of your team.',
      'There is no team member "ghost".',
      'The member "helper" could not be started, so the roster records it as failed.',
      "The team's log has a failing record (seq 7), so no more team changes are accepted.",
    ]);
  });

  it('given a refusal of the domain the toolset does not know yet, then its message becomes the sentence, on one line', () => {
    expect(refusalSentence(new FutureRefusal())).toBe('The target is on holiday until Monday.');
  });

  it('given an error that is not a refusal, then there is no sentence (the host handles it)', () => {
    expect(refusalSentence(new Error('SQLITE_IOERR'))).toBeUndefined();
    expect(refusalSentence(new NotATeamSession('s' as SessionId))).toBeUndefined();
    expect(refusalSentence('a string')).toBeUndefined();
  });
});
