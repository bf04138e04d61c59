import type { ToolDefinition } from '@teamlog/tools';

/* A host's own model API, as small as the README's host loop needs. */

export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

export type ModelMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string; readonly isError: boolean };

export interface Model {
  respond(request: {
    readonly messages: readonly ModelMessage[];
    readonly tools: readonly ToolDefinition[];
  }): Promise<{ readonly toolCalls: readonly ModelToolCall[] }>;
}
