import type { DemoSummary } from '@teamlog/scripted-host';
import { plural } from './plural';
import { renderTable } from './text-table';
import type { TextStyle } from './text-style';

/** What the scripted team did: its transcript, every accepted message and how it was delivered, refused sends. */
export const renderDemo = (demo: DemoSummary, style: TextStyle): string[] => [
  style.heading(`Demo team ${demo.teamId}: a Lead and ${plural(demo.members.length, 'member')}`),
  '',
  style.heading('What happened'),
  ...demo.transcript.map((line) => `  ${line}`),
  '',
  style.heading(`Messages accepted: ${demo.messages.length}`),
  ...renderTable(
    ['FROM', 'TO', 'DELIVERY', 'OUTCOME', 'MESSAGE'],
    demo.messages.map((message) => [message.from, message.to, message.delivery, message.outcome, message.id]),
  ),
  '',
  style.heading(`Sends refused: ${demo.rejected.length}`),
  ...demo.rejected.map(
    (rejected) => `  ${rejected.from} -> ${rejected.to}: ${style.alert(rejected.error)}: ${rejected.message}`,
  ),
  ...(demo.leadSummary === '' ? [] : ['', `${style.heading('Lead summary:')} ${demo.leadSummary}`]),
];
