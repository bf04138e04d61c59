import { v5 as uuidv5 } from 'uuid';
import { EventId } from '@teamlog/events';

/** The uuid v5 namespace of imported session logs (fixed: ids must be the same on every import). */
export const importNamespace = '5b0f7a8e-3c51-4d2a-9e61-2f4b8c7d9a10';

/**
 * The store id of event `seq` of a session stream: deterministic, so re-importing appends the
 * same ids and the store's idempotent-retry guarantee applies.
 */
export const sessionEventId = (streamKey: string, seq: number): EventId => uuidv5(`session/${streamKey}/${seq}`, importNamespace) as EventId;

export const sessionHeaderEventId = (streamKey: string): EventId => uuidv5(`sessionheader/${streamKey}`, importNamespace) as EventId;
