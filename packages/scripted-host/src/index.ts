export { ScriptedHost } from './scripted-host';
export type { Reaction, TurnContext, ScriptedHostOptions } from './scripted-host';
export { Gate } from './gate';
export { bodyOf, senderNameOf } from './relayed-text';
export { runDemo } from './run-demo';
export type { DemoSummary } from './demo-summary';
