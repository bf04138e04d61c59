/*
 * The shape every boundary's one error shares: a fault (a tagged union whose `code` names what went
 * wrong, with the fields that code needs), a message worded from the fault by an exhaustive table,
 * and a guard that narrows by class and code. Each boundary (the store port, the TeamLog, the
 * toolset, ...) declares its fault union and table and extends CodedError once.
 */

/** One case of a boundary's fault union. */
export interface Fault {
  readonly code: string;
}

/** The fault of one code of the union `F`. */
export type FaultOf<F extends Fault, C extends F['code']> = Extract<F, { readonly code: C }>;

/** How each code is worded: exhaustive, so a new code does not compile until it has its line. */
export type MessageTable<F extends Fault> = { readonly [C in F['code']]: (fault: FaultOf<F, C>) => string };

/** The one-line message of a fault, from its boundary's table. */
export const describeFault =
  <F extends Fault>(table: MessageTable<F>) =>
  (fault: F): string =>
    (table[fault.code as F['code']] as (fault: F) => string)(fault);

/** A boundary's one error: `code` says which case, `fault` holds its fields; a fault's `cause` becomes the error's. */
export abstract class CodedError<F extends Fault> extends Error {
  readonly code: F['code'];
  constructor(
    readonly fault: F,
    message: string,
  ) {
    super(message, 'cause' in fault ? { cause: fault.cause } : undefined);
    this.code = fault.code;
  }
}

/**
 * A guard for one boundary's error: narrows an unknown error to `errorClass`, of the given codes
 * when any are named (`isStoreError(error, 'StreamNotFound')`), so a catch site reads as an
 * `instanceof` of a class per case did.
 */
export const codedErrorGuard =
  <F extends Fault, E extends CodedError<F>>(
    // biome-ignore lint/suspicious/noExplicitAny: a class of any constructor signature is matched by instanceof alone
    errorClass: abstract new (...args: any[]) => E,
  ) =>
  <C extends F['code']>(
    error: unknown,
    ...codes: readonly C[]
  ): error is E & { readonly code: C; readonly fault: FaultOf<F, C> } =>
    error instanceof errorClass && (codes.length === 0 || (codes as readonly string[]).includes(error.code));
