import { explanationsOf } from '@teamlog/projections';
import { asOfOption } from '../as-of-argument';
import { asOfFlag, jsonFlag, storeFlag, strictFlag } from '../common-flags';
import { defineCommand } from '../command';
import { writeJson } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { readViews } from '../read-views';
import { resolveStoreLocation } from '../store-location';
import { strictExitCode } from '../strict-exit-code';
import { renderAudit } from '../text/audit-text';
import { styleFor } from '../text/text-style';

export const auditCommand = defineCommand(
  {
    name: 'audit',
    summary: 'Check who really sent what: sender-attribution findings over every inbox and Lead log (codes in docs/projections.md).',
    positionals: [],
    flags: { store: storeFlag, json: jsonFlag, 'as-of': asOfFlag, strict: { ...strictFlag, description: 'exit 1 when there are findings' } },
  },
  async ({ flags }, { io }) => {
    const asOf = asOfOption(flags['as-of'], 'audit');
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const audit = await withStore(location, { access: 'read' }, async (opened) => (await readViews(opened, asOf)).views.audit());
    if (flags.json) writeJson(io, { audit, explanations: explanationsOf(audit) });
    else io.stdout(`${renderAudit(audit, styleFor(io.stdoutIsTerminal, io.env)).join('\n')}\n`);
    return strictExitCode(flags.strict, audit.length);
  },
);
