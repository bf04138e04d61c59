import * as t from 'io-ts';

export const acceptanceCheckCodes = [
  'writer-missing',
  'writer-not-sender',
  'sender-stream-missing',
  'sender-closed',
  'sender-in-other-team',
  'sender-not-in-roster',
] as const;
export type AcceptanceCheckCode = (typeof acceptanceCheckCodes)[number];

/** One check an acceptance failed; kept in the target session's facts for the audit. */
export const AcceptanceProblem = t.type(
  {
    seq: t.number,
    messageId: t.string,
    code: t.keyof(
      Object.fromEntries(acceptanceCheckCodes.map((code) => [code, null])) as Record<AcceptanceCheckCode, null>,
    ),
    detail: t.string,
    teamId: t.string,
  },
  'AcceptanceProblem',
);
export type AcceptanceProblem = t.TypeOf<typeof AcceptanceProblem>;
