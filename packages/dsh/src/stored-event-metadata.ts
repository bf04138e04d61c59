import type { StoredEventMetadata } from '@teamlog/events';
import type { LogicalEvent } from './logical-event';

type MutableMetadata = { -readonly [K in keyof StoredEventMetadata]: StoredEventMetadata[K] };

/** The envelope as `StoredEventMetadata`, keys in a fixed order; built by assignment (per event: no spreads). */
export const storedEventMetadataOf = (event: LogicalEvent, normalised: boolean): StoredEventMetadata => {
  const metadata: MutableMetadata = { time: event.time };
  if (event.ignorable !== undefined) metadata.ignorable = event.ignorable;
  if (event.surfaceOp !== undefined) metadata.surfaceOp = event.surfaceOp;
  if (event.sourceEventSeqs !== undefined) metadata.sourceEventSeqs = event.sourceEventSeqs;
  if (event.extra !== undefined) metadata.extra = event.extra;
  if (normalised) metadata.normalised = true;
  if (event.packed !== undefined) metadata.packed = event.packed;
  return metadata;
};
