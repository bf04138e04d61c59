import * as t from 'io-ts';
import { MessageId } from '@teamlog/events';
import { described } from '../described-type';
import { InboxMessageView, inboxMessageView } from '../inbox-view';
import { strictObjectType } from '../strict-object-type';
import { defineTool } from '../team-tool';
import { ToolError } from '../tool-errors';

export const ReadInboxArguments = strictObjectType(
  {},
  { after: described(MessageId, 'Only messages accepted after this message id (the last one you read).') },
  'ReadInboxArguments',
);

export const ReadInboxResult = strictObjectType({ messages: t.readonlyArray(InboxMessageView) }, {}, 'ReadInboxResult');

const messageLine = (message: InboxMessageView): string =>
  `- ${message.id} from ${message.from} (${message.status}):\n${message.text}`;

export const readInboxTool = defineTool({
  name: 'read_inbox',
  description:
    'Read the messages your inbox accepted, oldest first, with their true sender; pass "after" to read only newer ones.',
  roles: ['lead', 'member'],
  writes: false,
  input: ReadInboxArguments,
  output: ReadInboxResult,
  run: async ({ inbox }, { after }) => {
    const entries = await inbox();
    const start = after === undefined ? 0 : entries.findIndex((entry) => entry.id === after) + 1;
    if (start === 0 && after !== undefined) throw new ToolError({ code: 'UnknownInboxMessage', messageId: after });
    const messages = entries.slice(start).map(inboxMessageView);
    const text =
      messages.length === 0
        ? 'No messages.'
        : `${messages.length} message(s):\n${messages.map(messageLine).join('\n')}`;
    return { text, structured: { messages } };
  },
});
