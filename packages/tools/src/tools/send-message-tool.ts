import * as t from 'io-ts';
import { MessageId, NonEmptyString } from '@teamlog/events';
import { described } from '../described-type';
import { MemberAddress } from '../member-address';
import { strictObjectType } from '../strict-object-type';
import { defineTool } from '../team-tool';

/* The one message operation. The model names only the target: the sender is the calling session, and
   delivery is always a steer, so neither has a field. */

export const SendMessageArguments = strictObjectType(
  {
    target: MemberAddress,
    message: described(
      NonEmptyString,
      'The text to send. The recipient reads it under "Team message from <your name>:".',
    ),
  },
  {},
  'SendMessageArguments',
);

export const SendMessageResult = strictObjectType({ messageId: MessageId, target: t.string }, {}, 'SendMessageResult');

export const sendMessageTool = defineTool({
  name: 'send_message',
  description:
    'Send a message to a teammate (a member, or "lead" for the Lead). Returns once the target\'s inbox has durably accepted it; ' +
    'a running target reads it at its next step, an idle one starts a turn for it. Accepted does not mean read or acted on.',
  roles: ['lead', 'member'],
  writes: true,
  input: SendMessageArguments,
  output: SendMessageResult,
  run: async ({ handle }, { target, message }) => {
    const messageId = await handle.send({ target, message });
    return {
      text: `Accepted by the inbox of "${target}" as message ${messageId}; it reaches them at their next step or turn.`,
      structured: { messageId, target },
    };
  },
});
