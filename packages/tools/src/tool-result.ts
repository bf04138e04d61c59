import type { JsonObject } from '@teamlog/events';

/** What a model reads back from a tool call: one text, and the same result as structured content. */
export type ToolResult = ToolSuccess | ToolFailure;

export interface ToolSuccess {
  readonly isError: false;
  readonly text: string;
  /** Matches the tool's `outputSchema`. */
  readonly structuredContent: JsonObject;
}

export interface ToolFailure {
  readonly isError: true;
  /** One sentence saying what was refused and, where it helps, what to do instead. */
  readonly text: string;
  /** `code` is the refusal's code (UnknownTarget, TaskRevisionConflict, ...), the same as the error's `code`. */
  readonly structuredContent: { readonly error: { readonly code: string; readonly message: string } };
}

export const toolSuccess = (text: string, structuredContent: JsonObject): ToolSuccess => ({
  isError: false,
  text,
  structuredContent,
});

export const toolFailure = (code: string, sentence: string): ToolFailure => ({
  isError: true,
  text: sentence,
  structuredContent: { error: { code, message: sentence } },
});
