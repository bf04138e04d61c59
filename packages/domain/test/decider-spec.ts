import { isLeft } from 'fp-ts/Either';
import { type SessionId, type WritableEvent, checkedStreamEvent } from '@teamlog/events';
import type { Decider } from '@teamlog/domain';

/** What a decision is checked against: the events it decides, or the refusal it returns. */
export interface DeciderThen<E> {
  /** The decision is exactly these events (none: the command writes nothing). */
  readonly then: (expected: readonly E[]) => void;
  /** The decision is a refusal with this code, and these fields. */
  readonly thenRejects: (code: string, fields?: Record<string, unknown>) => void;
}

/**
 * Given / when / then for a decider: the given events are folded from an empty stream of `session`
 * with the decider's own `evolve` (dense seqs from 0, as a stream has them), the command is decided
 * once on that state, and the decision is checked.
 */
export const deciderSpec = <C, E, S, R extends { readonly code: string }>(
  decider: Decider<C, E, S, R>,
  session: SessionId,
) => ({
  given: (...events: readonly WritableEvent[]) => ({
    when: (command: C): DeciderThen<E> => {
      const state = events.reduce(
        (folded, event, seq) => decider.evolve(folded, checkedStreamEvent(event, seq)),
        decider.initialState(session),
      );
      const decided = decider.decide(command, state);
      return {
        // biome-ignore lint/suspicious/noThenProperty: given / when / then reads as the spec; the object is never awaited.
        then: (expected) => {
          if (isLeft(decided)) throw new Error(`expected events, the decider refused: ${JSON.stringify(decided.left)}`);
          expect(decided.right).toEqual(expected);
        },
        thenRejects: (code, fields = {}) => {
          if (!isLeft(decided))
            throw new Error(`expected a refusal, the decider decided ${decided.right.length} event(s)`);
          expect(decided.left).toMatchObject({ ...fields, code });
        },
      };
    },
  }),
});
