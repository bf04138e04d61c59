import type { ArrowLayout, FlowLayout, LaneLayout } from './message-flow-layout';
import { escapeXml } from './xml-text';

const attributes = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([name, value]) => `${name}="${escapeXml(String(value))}"`)
    .join(' ');

/** Loop width and drop of a message a session sends to itself. */
const selfLoop = { width: 36, drop: 14 };
const labelLift = 6;

const laneMarkup = (lane: LaneLayout, layout: FlowLayout): string =>
  [
    `<g ${attributes({ class: `flow-lane role-${lane.participant.role}`, 'data-session-id': lane.participant.id })}>`,
    `<title>${escapeXml(`${lane.participant.name} (${lane.participant.role}): ${lane.participant.id}`)}</title>`,
    `<rect ${attributes({ class: 'flow-lane-box', x: lane.boxX, y: layout.lifelineTop - 34, width: lane.boxWidth, height: 28, rx: 4 })}/>`,
    `<text ${attributes({ class: 'flow-lane-name', x: lane.x, y: layout.lifelineTop - 15, 'text-anchor': 'middle' })}>${escapeXml(lane.label)}</text>`,
    `<line ${attributes({ class: 'flow-lifeline', x1: lane.x, y1: layout.lifelineTop, x2: lane.x, y2: layout.lifelineBottom })}/>`,
    '</g>',
  ].join('');

const arrowShape = (arrow: ArrowLayout): string =>
  arrow.direction === 'self'
    ? `<path ${attributes({
        class: 'flow-arrow-line',
        d: `M ${arrow.x1} ${arrow.y} h ${selfLoop.width} v ${selfLoop.drop} h ${-selfLoop.width}`,
        'marker-end': 'url(#flow-arrowhead)',
      })}/>`
    : `<line ${attributes({ class: 'flow-arrow-line', x1: arrow.x1, y1: arrow.y, x2: arrow.x2, y2: arrow.y, 'marker-end': 'url(#flow-arrowhead)' })}/>`;

const arrowMarkup = (arrow: ArrowLayout): string => {
  const labelX = arrow.direction === 'self' ? arrow.x1 + selfLoop.width + 4 : (arrow.x1 + arrow.x2) / 2;
  return [
    `<g ${attributes({
      class: `flow-arrow status-${arrow.status} via-${arrow.via}`,
      'data-order': arrow.order,
      'data-from': arrow.from,
      'data-to': arrow.to,
      'data-message-id': arrow.messageId,
      'data-status': arrow.status,
      'data-direction': arrow.direction,
    })}>`,
    `<title>${escapeXml(arrow.title)}</title>`,
    arrowShape(arrow),
    `<text ${attributes({ class: 'flow-arrow-label', x: labelX, y: arrow.y - labelLift, 'text-anchor': arrow.direction === 'self' ? 'start' : 'middle' })}>${escapeXml(arrow.label)}</text>`,
    '</g>',
  ].join('');
};

/** The diagram as a standalone SVG document; every text from the views is escaped. */
export const renderMessageFlowSvg = (layout: FlowLayout, caption: string): string =>
  [
    `<svg ${attributes({
      xmlns: 'http://www.w3.org/2000/svg',
      class: 'message-flow',
      width: layout.width,
      height: layout.height,
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      role: 'img',
      'aria-label': caption,
    })}>`,
    `<title>${escapeXml(caption)}</title>`,
    '<defs><marker id="flow-arrowhead" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">',
    '<path class="flow-arrowhead" d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>',
    `<g class="flow-lanes">${layout.lanes.map((lane) => laneMarkup(lane, layout)).join('')}</g>`,
    `<g class="flow-arrows">${layout.arrows.map(arrowMarkup).join('')}</g>`,
    layout.arrows.length === 0
      ? `<text ${attributes({ class: 'flow-empty', x: layout.width / 2, y: layout.lifelineTop + 24, 'text-anchor': 'middle' })}>no messages</text>`
      : '',
    '</svg>',
  ].join('');
