import { isStoredEventMetadata } from '@teamlog/events';
import type { RecordedEvent } from '@teamlog/store';

/** When an event happened, as far as the store can tell. */
export interface EventClock {
  /** Epoch ms: the envelope's `time` kept in the metadata, else when the store recorded it. */
  readonly time: number;
  /** The source line had no time (a normalised snapshot fixture): `time` says nothing about the era. */
  readonly normalised: boolean;
}

/** The codec's verdict from its compiled validator: no decoded copy and no error context per event. */
export const eventClockOf = (event: RecordedEvent): EventClock => {
  const metadata = event.metadata;
  return isStoredEventMetadata(metadata)
    ? { time: metadata.time, normalised: metadata.normalised === true }
    : { time: event.recordedAt.getTime(), normalised: false };
};
