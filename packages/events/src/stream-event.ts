import type * as t from 'io-ts';
import { catalogValidator } from './catalog-validators';
import { type CatalogEventType, type eventCodecs, isCatalogEventType } from './event-catalog';
import { type TeamRecordType, isTeamRecordType } from './team-records';

/** A catalog event at its place in a session stream: its seq (the stream revision) and its payload, checked by its codec. */
export type CatalogStreamEvent = {
  [K in CatalogEventType]: {
    readonly catalog: true;
    readonly type: K;
    readonly seq: number;
    readonly data: t.TypeOf<(typeof eventCodecs)[K]>;
  };
}[CatalogEventType];

/**
 * Any other event of a stream: a reference type kept verbatim, an unknown type, or a catalog type
 * whose payload its codec refuses (a fold decides what that means: the Team fold fails the team).
 */
export interface OpaqueStreamEvent {
  readonly catalog: false;
  readonly type: string;
  readonly seq: number;
  readonly data: unknown;
}

/**
 * The one event shape every fold takes. Test `catalog` first: then `type` narrows `data` to the
 * payload its codec describes, with no casts in the fold.
 */
export type StreamEvent = CatalogStreamEvent | OpaqueStreamEvent;

/**
 * An event read from a store as folds see it. The validator compiled from the codec gives
 * `decode`'s verdict without the decoded copy `decode` builds, so the payload itself is handed on,
 * never copied.
 */
export const streamEvent = (type: string, seq: number, data: unknown): StreamEvent =>
  isCatalogPayload(type, data)
    ? ({ catalog: true, type, seq, data } as CatalogStreamEvent)
    : { catalog: false, type, seq, data };

/** Whether an event is a catalog event whose payload its codec accepts: what `catalog` of a StreamEvent says. */
export const isCatalogPayload = (type: string, data: unknown): boolean =>
  isCatalogEventType(type) && catalogValidator(type)(data);

/** An event this process checked against its codec before writing it (see event-writer in team). */
export const checkedStreamEvent = <E extends { readonly type: CatalogEventType; readonly data: unknown }>(
  event: E,
  seq: number,
): CatalogStreamEvent => ({ catalog: true, type: event.type, seq, data: event.data }) as CatalogStreamEvent;

/** The catalog event of one type (or of a union of types). */
export type CatalogEventOf<K extends CatalogEventType> = Extract<CatalogStreamEvent, { readonly type: K }>;

/** A Team record whose payload its codec accepted. */
export const isTeamRecordEvent = (event: StreamEvent): event is CatalogEventOf<TeamRecordType> =>
  event.catalog && isTeamRecordType(event.type);
