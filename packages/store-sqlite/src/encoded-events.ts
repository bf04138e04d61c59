import type { EventToAppend } from '@teamlog/store';
import type { EncodedEvent } from './event-rows';

/** The text the store inserts and chains: one `JSON.stringify` per payload and metadata (none where the writer kept its text). */
const encodedEvent = (event: EventToAppend): EncodedEvent => ({
  id: event.id,
  type: event.type,
  data: event.dataText ?? JSON.stringify(event.data),
  metadata: event.metadata === undefined ? null : (event.metadataText ?? JSON.stringify(event.metadata)),
});

/**
 * An append's events as the store writes them, in an array of one shape however this is compiled:
 * `Array.prototype.map` answers a packed array from the interpreter but a holey one once TurboFan
 * inlines it, and the group's writers, optimised on the first, were thrown back to the interpreter
 * ("wrong map") and compiled again when the second arrived. Pushing onto a literal stays packed.
 */
export const encodedEvents = (events: readonly EventToAppend[]): EncodedEvent[] => {
  const encoded: EncodedEvent[] = [];
  for (let index = 0; index < events.length; index += 1) encoded.push(encodedEvent(events[index] as EventToAppend));
  return encoded;
};
