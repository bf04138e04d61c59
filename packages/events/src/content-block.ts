import * as t from 'io-ts';
import { NonNegativeInteger, PositiveInteger, NonEmptyString } from './numbers';
import { openObject, strictObject } from './strict-object';
import { taggedUnion } from './tagged-union';

/*
 * Content blocks come in two strengths. Team payloads are validated exactly as the reference's
 * projection does (extra keys refused). Blocks elsewhere in a session log keep every field they
 * carry (older and newer writers added fields), but the fields they declare must be well typed.
 */

const MediaType = t.keyof(
  { 'image/png': null, 'image/jpeg': null, 'image/webp': null, 'image/gif': null },
  'MediaType',
);

const UnknownBlock = openObject({ type: t.string }, {}, 'PluginContentBlock');

export const TextBlock = openObject({ type: t.literal('text'), text: t.string }, {}, 'TextBlock');
export const ReasoningBlock = openObject({ type: t.literal('reasoning'), text: t.string }, {}, 'ReasoningBlock');
export const ImageBlock = openObject(
  {
    type: t.literal('image'),
    attachment: openObject(
      {
        attachmentId: t.string,
        mediaType: MediaType,
        bytes: NonNegativeInteger,
        width: PositiveInteger,
        height: PositiveInteger,
      },
      { name: t.string },
      'ImageAttachment',
    ),
  },
  { offloaded: t.literal(true) },
  'ImageBlock',
);
export const FileBlock = openObject(
  {
    type: t.literal('file'),
    attachment: openObject({ attachmentId: t.string, bytes: NonNegativeInteger, name: t.string }, {}, 'FileAttachment'),
  },
  {},
  'FileBlock',
);
export const ToolCallBlock = openObject(
  { type: t.literal('tool-call'), id: t.string, name: t.string, arguments: t.unknown },
  {},
  'ToolCallBlock',
);

export interface ToolResultBlock {
  readonly [key: string]: unknown;
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly content: ReadonlyArray<ContentBlock>;
  readonly isError?: boolean;
}
export type ContentBlock =
  | t.TypeOf<typeof TextBlock>
  | t.TypeOf<typeof ReasoningBlock>
  | t.TypeOf<typeof ImageBlock>
  | t.TypeOf<typeof FileBlock>
  | t.TypeOf<typeof ToolCallBlock>
  | ToolResultBlock
  | t.TypeOf<typeof UnknownBlock>;

export const ContentBlock: t.Type<ContentBlock, unknown, unknown> = t.recursion('ContentBlock', () =>
  taggedUnion(
    'type',
    {
      text: TextBlock,
      reasoning: ReasoningBlock,
      image: ImageBlock,
      file: FileBlock,
      'tool-call': ToolCallBlock,
      'tool-result': openObject(
        { type: t.literal('tool-result'), toolCallId: t.string, content: t.readonlyArray(ContentBlock) },
        { isError: t.boolean },
        'ToolResultBlock',
      ),
    },
    UnknownBlock,
    'ContentBlock',
  ),
);

/* Exact blocks for Team payloads (docs/rules.md#team-content-strict). */
const ExactImageAttachment = strictObject(
  {
    attachmentId: t.string,
    mediaType: MediaType,
    bytes: NonNegativeInteger,
    width: PositiveInteger,
    height: PositiveInteger,
  },
  { name: t.string },
  'TeamImageAttachment',
);

export interface TeamContentToolResult {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly content: ReadonlyArray<TeamContentBlock>;
  readonly isError?: boolean;
}
export type TeamContentBlock =
  | { readonly type: 'text' | 'reasoning'; readonly text: string }
  | { readonly type: 'image'; readonly attachment: t.TypeOf<typeof ExactImageAttachment> }
  | { readonly type: 'tool-call'; readonly id: NonEmptyString; readonly name: string; readonly arguments: unknown }
  | TeamContentToolResult
  | t.TypeOf<typeof UnknownBlock>;

export const TeamContentBlock: t.Type<TeamContentBlock, unknown, unknown> = t.recursion('TeamContentBlock', () =>
  taggedUnion(
    'type',
    {
      text: strictObject({ type: t.literal('text'), text: t.string }, {}, 'TeamTextBlock'),
      reasoning: strictObject({ type: t.literal('reasoning'), text: t.string }, {}, 'TeamReasoningBlock'),
      image: strictObject({ type: t.literal('image'), attachment: ExactImageAttachment }, {}, 'TeamImageBlock'),
      'tool-call': strictObject(
        { type: t.literal('tool-call'), id: NonEmptyString, name: t.string, arguments: t.unknown },
        {},
        'TeamToolCallBlock',
      ),
      'tool-result': strictObject(
        { type: t.literal('tool-result'), toolCallId: t.string, content: t.readonlyArray(TeamContentBlock) },
        { isError: t.boolean },
        'TeamToolResultBlock',
      ),
    },
    UnknownBlock,
    'TeamContentBlock',
  ),
);
