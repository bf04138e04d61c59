import type { ReplayTotalsJson, SessionJson } from '../replay-document';
import { plural } from './plural';
import type { TextStyle } from './text-style';

const perReasonLimit = 5;

const headline = (totals: ReplayTotalsJson): string =>
  [
    `Sessions: ${plural(totals.files, 'file')} read`,
    `${totals.imported} imported (${plural(totals.appended, 'event')} appended)`,
    `${totals.recovered} recovered`,
    `${totals.rejected} rejected`,
    `${totals.notSessionLogs} not session logs`,
  ].join(', ');

const recoveryLimit = 10;

const recoveries = (sessions: readonly SessionJson[], style: TextStyle): string[] => {
  const recovered = sessions.filter((session) => session.recovery !== null);
  const lines = recovered.slice(0, recoveryLimit).map((session) => {
    const recovery = session.recovery as NonNullable<SessionJson['recovery']>;
    return `  ${style.dim('recovered')} ${session.file}: ${recovery.reason}${recovery.line === undefined ? '' : ` at line ${recovery.line}`}, kept ${plural(recovery.keptEvents, 'event')}`;
  });
  return recovered.length > recoveryLimit
    ? [...lines, style.dim(`  … ${recovered.length - recoveryLimit} more recovered (--json lists every file)`)]
    : lines;
};

/** Rejected files grouped by reason, a few each; the JSON document lists them all. */
const rejections = (sessions: readonly SessionJson[], style: TextStyle): string[] => {
  const byReason = new Map<string, SessionJson[]>();
  for (const session of sessions) {
    if (session.rejected === undefined || session.rejected === 'not-a-session-log') continue;
    byReason.set(session.rejected, [...(byReason.get(session.rejected) ?? []), session]);
  }
  return [...byReason.entries()].flatMap(([reason, rejected]) => [
    `  ${style.alert(`rejected: ${reason}`)} (${plural(rejected.length, 'file')})`,
    ...rejected.slice(0, perReasonLimit).map((session) => `    ${session.rejection?.message ?? session.file}`),
    ...(rejected.length > perReasonLimit
      ? [style.dim(`    … ${rejected.length - perReasonLimit} more (--json lists every file)`)]
      : []),
  ]);
};

/** What the import did with each file. */
export const renderSessions = (
  sessions: readonly SessionJson[],
  totals: ReplayTotalsJson,
  style: TextStyle,
): string[] => [style.heading(headline(totals)), ...recoveries(sessions, style), ...rejections(sessions, style)];
