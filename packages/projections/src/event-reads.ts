/**
 * Event types the views read only by their type, the codec's verdict, their seq and their
 * metadata's time (session-facts.ts: the event count and the last time): no fold reads their data
 * or the rest of their metadata (none is a Team record, an inbox or lifecycle event, an inherited
 * end of seed or a created session). The views fold them with data that throws when read, so a
 * fold that starts reading it fails in the tests; a one-shot replay checks their lines on their
 * bytes and never parses their data (dsh dataless-event.ts holds the same list). Most of a
 * conversation's bytes are these.
 */
export const typeOnlyEventTypes: readonly string[] = ['assistant/message', 'tool/call', 'tool/result', 'step/end'];
