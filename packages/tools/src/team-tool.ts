import type * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { JsonObject, type SessionRole, decodeWith } from '@teamlog/events';
import type { StrictObjectType } from './strict-object-type';
import { ToolError } from './tool-errors';
import type { ToolSession } from './tool-session';
import { type ToolSuccess, toolSuccess } from './tool-result';

/** Any strict object codec (a tool's arguments and result are objects); `t.Mixed` keeps codecs of different props in one list. */
export type ObjectCodec = t.Mixed & Pick<StrictObjectType<t.Props, t.Props>, '_tag'>;

/** What a tool's run returns: the text a model reads and the structured result (typed by the output codec). */
export interface ToolOutput<O> {
  readonly text: string;
  readonly structured: O;
}

/** One tool as written: codecs for its arguments and result, and what it does as the calling session. */
export interface ToolSpec<I extends ObjectCodec, O extends ObjectCodec> {
  readonly name: string;
  readonly description: string;
  /** The roles whose toolset holds it. */
  readonly roles: readonly SessionRole[];
  /** Whether the tool writes to the team (a closed session's call is refused before it runs). */
  readonly writes: boolean;
  readonly input: I;
  readonly output: O;
  readonly run: (session: ToolSession, args: t.TypeOf<I>) => Promise<ToolOutput<t.TypeOf<O>>>;
}

/** One tool of the toolset with its types closed over: arguments go in unchecked and are decoded first. */
export interface TeamTool {
  readonly name: string;
  readonly description: string;
  readonly roles: readonly SessionRole[];
  readonly writes: boolean;
  readonly input: ObjectCodec;
  readonly output: ObjectCodec;
  /** Decodes the arguments (InvalidToolArguments, nothing run), refuses a write of a closed session (SessionClosedForWrites), then runs; typed refusals are thrown. */
  readonly invoke: (session: ToolSession, args: unknown) => Promise<ToolSuccess>;
}

// Structured results are objects of JSON values by construction of the output codecs; the guard
// keeps that promise checked instead of cast.
const asJsonObject = (toolName: string, value: unknown): JsonObject => {
  if (!JsonObject.is(value)) throw new Error(`${toolName} produced a result that is not a JSON object`);
  return value;
};

export const defineTool = <I extends ObjectCodec, O extends ObjectCodec>(spec: ToolSpec<I, O>): TeamTool => {
  const decode = decodeWith(spec.input);
  return {
    name: spec.name,
    description: spec.description,
    roles: spec.roles,
    writes: spec.writes,
    input: spec.input,
    output: spec.output,
    invoke: async (session, args) => {
      const decoded = decode(args === undefined ? {} : args);
      if (isLeft(decoded))
        throw new ToolError({
          code: 'InvalidToolArguments',
          toolName: spec.name,
          path: decoded.left.path,
          detail: decoded.left.detail,
        });
      if (spec.writes) {
        const reason = await session.closed();
        if (reason !== undefined) throw new ToolError({ code: 'SessionClosedForWrites', toolName: spec.name, reason });
      }
      const { text, structured } = await spec.run(session, decoded.right);
      return toolSuccess(text, asJsonObject(spec.name, spec.output.encode(structured)));
    },
  };
};
