import type { EventId } from '@teamlog/events';
import { v4 as uuidv4 } from 'uuid';
import { type EventToAppend, type StreamName, streamName } from '@teamlog/store';

export const newEvent = (type = 'test/happened', data: EventToAppend['data'] = {}): EventToAppend => ({
  id: uuidv4() as EventId,
  type,
  data,
  metadata: { time: 0 },
});

let streamCounter = 0;
/** A stream name no other test, process or run uses (a shared server is safe). */
export const uniqueStream = (prefix = 'conformance'): StreamName =>
  streamName(`${prefix}-${process.pid}-${Date.now().toString(36)}-${(streamCounter += 1)}`);
