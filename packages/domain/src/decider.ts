import type { Either } from 'fp-ts/Either';
import type { SessionId, StreamEvent } from '@teamlog/events';

/**
 * The one shape of every aggregate (team roster, target inbox, session loop, sender lifecycle):
 * `decide` turns a command and the state into the events to append (or the refusal), `evolve`
 * folds one event of the aggregate's stream, `initialState` is the state of an empty stream.
 * Every aggregate here lives in one session's stream, so the initial state knows whose. A refusal
 * is data: a tagged union with a `code` per rule, never an exception.
 */
export interface Decider<
  Command,
  Event,
  State,
  Rejection extends { readonly code: string } = { readonly code: string },
> {
  readonly decide: (command: Command, state: State) => Either<Rejection, readonly Event[]>;
  /** Takes any event of the stream, decoded when it is a catalog event (see StreamEvent). */
  readonly evolve: (state: State, event: StreamEvent) => State;
  readonly initialState: (session: SessionId) => State;
  /**
   * The event types `evolve` reads; a store passes the others over unread. Every type when absent.
   * (The sender lifecycle reads one type of a long stream.)
   */
  readonly reads?: (type: string) => boolean;
}
