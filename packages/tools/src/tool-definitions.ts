import type { SessionRole } from '@teamlog/events';
import type { JsonSchema } from './json-schema';
import { jsonSchemaOf } from './json-schema-of';
import type { TeamTool } from './team-tool';
import { teamToolset } from './team-toolset';

/** A tool as a model runtime declares it; the schemas are generated from the tool's codecs. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** `{ type: "object", properties, required?, additionalProperties: false }` */
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
}

export const toolDefinition = (tool: TeamTool): ToolDefinition => ({
  name: tool.name,
  description: tool.description,
  inputSchema: jsonSchemaOf(tool.input),
  outputSchema: jsonSchemaOf(tool.output),
});

/** The definitions of a role's toolset, to hand to a model with each request. */
export const toolDefinitions = (role: SessionRole): readonly ToolDefinition[] => teamToolset(role).map(toolDefinition);
