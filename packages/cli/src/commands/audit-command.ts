import { explanationsOf } from '@teamlog/projections';
import { type StreamHead, auditChains } from '@teamlog/store';
import { asOfOption } from '../as-of-argument';
import { badInput, usageError } from '../cli-errors';
import { asOfFlag, jsonFlag, storeFlag, strictFlag } from '../common-flags';
import { defineCommand } from '../command';
import { booleanFlag, valueFlag } from '../argument-parser';
import { writeJson } from '../json-output';
import { keptDigestsJson, keptDigestsText, readKeptDigests } from '../kept-digests';
import { withStore } from '../open-teamlog-store';
import { readViews } from '../read-views';
import { resolveStoreLocation } from '../store-location';
import { strictExitCode } from '../strict-exit-code';
import { renderAudit } from '../text/audit-text';
import { renderChains } from '../text/chain-text';
import { styleFor } from '../text/text-style';

export const auditCommand = defineCommand(
  {
    name: 'audit',
    summary:
      'Check who really sent what and that no stored event changed: attribution findings and hash chains (codes in docs/projections.md, docs/trust-boundary.md).',
    positionals: [],
    flags: {
      store: storeFlag,
      json: jsonFlag,
      'as-of': asOfFlag,
      strict: { ...strictFlag, description: 'exit 1 when there are findings or chain breaks' },
      digests: booleanFlag("print every stream's head digest (to keep elsewhere) instead of the findings"),
      against: valueFlag(
        'FILE',
        'also compare the chains with head digests kept earlier by --digests (text or --json)',
      ),
    },
  },
  async ({ flags }, { io }) => {
    const asOf = asOfOption(flags['as-of'], 'audit');
    if (flags.digests && (flags.against !== undefined || asOf !== undefined))
      throw usageError(
        '--digests prints the heads of the store as it is now: it takes neither --against nor --as-of',
        'audit',
      );
    const kept: readonly StreamHead[] = flags.against === undefined ? [] : readKeptDigests(flags.against);
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const style = styleFor(io.stdoutIsTerminal, io.env);
    if (flags.digests) {
      const chains = await withStore(location, { access: 'read' }, (opened) => auditChains(opened.store));
      if (!chains.checked)
        throw usageError('this store keeps no hash chains, so it has no head digests to print', 'audit');
      if (chains.breaks.length > 0)
        io.stderr(
          `warning: ${chains.breaks.length} chain break(s): these heads cover changed events (teamlog audit lists them)\n`,
        );
      if (flags.json) writeJson(io, keptDigestsJson(chains.heads));
      else io.stdout(`${keptDigestsText(chains.heads).join('\n')}\n`);
      return strictExitCode(flags.strict, chains.breaks.length);
    }
    const { audit, chains } = await withStore(location, { access: 'read' }, async (opened) => ({
      audit: (await readViews(opened, asOf)).views.audit(),
      chains: await auditChains(opened.store, kept),
    }));
    if (kept.length > 0 && !chains.checked)
      throw badInput('this store keeps no hash chains to compare with the kept digests', { file: flags.against });
    if (flags.json) {
      writeJson(io, {
        audit,
        explanations: explanationsOf(audit),
        chains: { checked: chains.checked, streams: chains.streams, events: chains.events, breaks: chains.breaks },
      });
    } else {
      io.stdout(`${[...renderAudit(audit, style), ...renderChains(chains, style)].join('\n')}\n`);
    }
    return strictExitCode(flags.strict, audit.length + chains.breaks.length);
  },
);
