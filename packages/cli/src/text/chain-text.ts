import { type ChainAudit, chainBreakExplanations } from '@teamlog/store';
import { plural } from './plural';
import { renderTable } from './text-table';
import type { TextStyle } from './text-style';

/** The hash-chain part of `teamlog audit` (docs/trust-boundary.md). */
export const renderChains = (chains: ChainAudit, style: TextStyle): string[] => {
  if (!chains.checked) return [style.heading('Chains: this store keeps no hash chains')];
  const summary = `${plural(chains.streams, 'stream')}, ${plural(chains.events, 'event')}`;
  if (chains.breaks.length === 0) return [style.heading(`Chains: intact (${summary})`)];
  const rows = chains.breaks.map((found) => [
    { text: found.code, style: style.alert },
    found.streamName,
    String(found.revision),
    found.detail,
  ]);
  const codes = [...new Set(chains.breaks.map((found) => found.code))].sort();
  return [
    style.heading(`Chains: ${style.alert(plural(chains.breaks.length, 'break'))} (${summary})`),
    ...renderTable(['CODE', 'STREAM', 'REVISION', 'DETAIL'], rows, '  ', {
      rest: 'teamlog audit --json lists them all',
    }),
    ...codes.map((code) => `  ${style.alert(code)}: ${chainBreakExplanations[code]}`),
  ];
};
