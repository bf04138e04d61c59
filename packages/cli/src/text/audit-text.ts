import { type AuditCode, auditExplanations } from '@teamlog/projections';
import type { AuditFindingJson } from '../replay-document';
import { plural } from './plural';
import { renderTable } from './text-table';
import type { TextStyle } from './text-style';

const isAuditCode = (code: string): code is AuditCode => Object.hasOwn(auditExplanations, code);

/** One line per code that occurs: what it means. */
const explanationLines = (audit: readonly AuditFindingJson[], style: TextStyle): string[] =>
  [...new Set(audit.map((finding) => finding.code))]
    .sort()
    .filter(isAuditCode)
    .map((code) => `  ${style.alert(code)}: ${auditExplanations[code]}`);

/** Sender-attribution findings (docs/projections.md explains every code). */
export const renderAudit = (audit: readonly AuditFindingJson[], style: TextStyle): string[] => {
  if (audit.length === 0) return [style.heading('Audit: no findings')];
  const rows = audit.map((finding) => [
    { text: finding.code, style: style.alert },
    finding.sessionId,
    finding.seq < 0 ? 'header' : String(finding.seq),
    finding.messageId ?? '-',
    finding.detail,
  ]);
  return [
    style.heading(`Audit: ${style.alert(plural(audit.length, 'finding'))}`),
    ...renderTable(['CODE', 'SESSION', 'SEQ', 'MESSAGE', 'DETAIL'], rows, '  ', {
      rest: 'teamlog audit --json lists them all',
    }),
    ...explanationLines(audit, style),
  ];
};
