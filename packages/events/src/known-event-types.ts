/**
 * Every event type the harness's format defines across V0–V4 (docs/rules.md#known-event-types). A type outside this
 * list and outside teamlog's catalog is "unknown": kept verbatim, and flagged when not `ignorable`.
 */
export const knownSessionEventTypes: ReadonlySet<string> = new Set([
  'turn/start', 'turn/end', 'step/start', 'step/end', 'session/end-seed', 'agent/inbox/spliced',
  'user/message', 'system/message', 'developer/message', 'assistant/chunk', 'assistant/message', 'assistant/attempt',
  'tool/call', 'tool/result', 'tool/code-dispatch-start', 'tool/code-dispatch', 'tool/ptc-dispatch-start', 'tool/ptc-dispatch',
  'request/header', 'request/context', 'llm/retry', 'llm/retry-started', 'model/selection',
  'compaction/start', 'compaction/end', 'compaction/summary', 'compaction/prune', 'image/offload',
  'approval/policy', 'sandbox/mode', 'permission/preset', 'plan/mode', 'agent-preset/selected',
  'approval/asked', 'approval/decided', 'command/run', 'command/done', 'hook/invoked', 'hook/result',
  'session/title', 'session/title-llm-request', 'subagent/descriptor', 'subagent/catalog',
  'subagent/model-selection-policy', 'subagent/external-start', 'subagent/external-end',
  'tool-workflow/run-start', 'tool-workflow/run-end', 'tool-workflow/agent-start', 'tool-workflow/agent-end',
  'todo/write', 'goal/change', 'schedule/change', 'feedback/record', 'feedback/message-put', 'feedback/message-delete',
  'deliverables/presented', 'session-log-deepseek/delivery-accepted', 'web/deepseek-search-llm-request', 'workspace/changes',
  // Old V0 spellings, migrated by later generations.
  'steering/message', 'compact/start', 'compact/end', 'compact/summary', 'compact/prune',
  'team/member', 'team/task', 'team/message/queued', 'team/message/delivered',
]);
