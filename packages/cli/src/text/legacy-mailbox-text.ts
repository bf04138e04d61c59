import type { TeamJson } from '../replay-document';
import { plural } from './plural';
import { hiddenRows, renderTable, textRowLimit } from './text-table';
import type { TextStyle } from './text-style';

/**
 * The read-only mailbox of a historical Lead log, in queued order. Undelivered messages are
 * shouted: teamlog never delivers them, so a person has to decide what they meant.
 */
export const renderLegacyMailbox = (team: TeamJson, style: TextStyle, indent = '  '): string[] => {
  if (team.legacyMessages.length === 0) return [`${indent}Legacy mailbox: empty`];
  const undelivered = team.legacyMessages.filter((message) => message.status === 'undelivered').length;
  const counts = `${plural(team.legacyMessages.length, 'message')}, ${undelivered} undelivered`;
  const rows = team.legacyMessages
    .slice(0, textRowLimit)
    .map((message) => [
      message.status === 'undelivered' ? { text: '! UNDELIVERED', style: style.alert } : 'delivered',
      message.id,
      message.senderName,
      message.targetId,
      String(message.queuedSeq),
      message.deliveredSeq === undefined ? '-' : String(message.deliveredSeq),
      message.targetHasMessage === undefined ? 'not in store' : message.targetHasMessage ? 'yes' : 'no',
    ]);
  return [
    `${indent}Legacy mailbox (read-only, never delivered again): ${undelivered > 0 ? style.alert(counts) : counts}`,
    ...renderTable(['STATUS', 'MESSAGE', 'FROM', 'TO', 'QUEUED', 'DELIVERED', 'IN TARGET LOG'], rows, `${indent}  `),
    ...hiddenRows(
      team.legacyMessages.length - rows.length,
      `${indent}  `,
      `teamlog legacy --team ${team.teamId} --json lists them all`,
    ),
  ];
};
