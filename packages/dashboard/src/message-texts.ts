import type { EventStore } from '@teamlog/store';
import { messageTextIn } from './conversation';
import { type SeqBase, readSessionEvent } from './event-document';
import type { FlowMessage, MessageFlow } from './message-flow';

/** Messages whose text a flow answer carries; past it the page shows no text (each text is one read of the store). */
export const maxFlowTexts = 1000;

export type FlowMessageWithText = FlowMessage & { readonly text?: string };

/** The flow with each message's text, read from the event that records it (the views hold no text). */
export const withMessageTexts = async (
  store: EventStore,
  flow: MessageFlow,
  baseOf: SeqBase = () => 0,
): Promise<MessageFlow & { readonly messages: readonly FlowMessageWithText[] }> => {
  const messages = await Promise.all(
    flow.messages.map(async (message, index): Promise<FlowMessageWithText> => {
      if (index >= maxFlowTexts) return message;
      const event = await readSessionEvent(store, message.recordedIn, message.seq, baseOf(message.recordedIn));
      const text = event === undefined ? undefined : messageTextIn(event.type, event.data, message.messageId);
      return text === undefined ? message : { ...message, text };
    }),
  );
  return { ...flow, messages };
};
