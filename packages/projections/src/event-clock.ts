import { isRight } from 'fp-ts/Either';
import { StoredEventMetadata } from '@teamlog/events';
import { RecordedEvent } from '@teamlog/store';

/** When an event happened, as far as the store can tell. */
export interface EventClock {
  /** Epoch ms: the envelope's `time` kept in the metadata, else when the store recorded the event. */
  readonly time: number;
  /** The source line had no time (a normalised snapshot fixture): `time` says nothing about the era. */
  readonly normalised: boolean;
}

export const eventClockOf = (event: RecordedEvent): EventClock => {
  const metadata = StoredEventMetadata.decode(event.metadata);
  return isRight(metadata)
    ? { time: metadata.right.time, normalised: metadata.right.normalised === true }
    : { time: event.recordedAt.getTime(), normalised: false };
};
