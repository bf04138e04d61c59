import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import type { FlowMessage, MessageFlow } from '../src/message-flow';
import { layoutMessageFlow } from '../src/message-flow-layout';
import { renderMessageFlowSvg } from '../src/message-flow-svg';

const lead = 'lead-1' as SessionId;
const member = 'member-1' as SessionId;

const reply: FlowMessage = {
  messageId: 'm-2' as MessageId,
  from: member,
  to: lead,
  via: 'inbox',
  sourceKind: 'team-relay',
  status: 'claimed',
  time: 1,
  recordedIn: lead,
  seq: 9,
};

const flow: MessageFlow = {
  teamId: lead as string as TeamId,
  participants: [
    { id: lead, name: 'lead', role: 'lead' },
    { id: member, name: '<b>"bob" & co</b>', role: 'member' },
  ],
  messages: [
    {
      messageId: 'm-1' as MessageId,
      from: lead,
      to: member,
      via: 'legacy-mailbox',
      sourceKind: 'team/message/queued',
      status: 'undelivered',
      time: 0,
      recordedIn: lead,
      seq: 4,
    },
    reply,
  ],
};

const arrowTags = (svg: string): string[] => svg.match(/<g class="flow-arrow [^>]*>/g) ?? [];

describe('renderMessageFlowSvg', () => {
  const svg = renderMessageFlowSvg(layoutMessageFlow(flow), 'Message flow of team lead-1');

  it('is one SVG document with a caption for assistive technology', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" class="message-flow"')).toBe(true);
    expect(svg).toContain('aria-label="Message flow of team lead-1"');
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it('draws one arrow group per message, in order, naming sender, target, message and status', () => {
    expect(arrowTags(svg)).toEqual([
      '<g class="flow-arrow status-undelivered via-legacy-mailbox" data-order="1" data-from="lead-1" data-to="member-1" data-message-id="m-1" data-status="undelivered" data-direction="right">',
      '<g class="flow-arrow status-claimed via-inbox" data-order="2" data-from="member-1" data-to="lead-1" data-message-id="m-2" data-status="claimed" data-direction="left">',
    ]);
  });

  it('ends every arrow with the arrowhead marker it defines', () => {
    expect(svg).toContain('<marker id="flow-arrowhead"');
    expect(svg.match(/marker-end="url\(#flow-arrowhead\)"/g)).toHaveLength(2);
  });

  it('escapes names that look like markup', () => {
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;b&gt;&quot;bob&quot; &amp; co&lt;/b&gt;');
  });

  it('draws a self message as a loop back to the same lifeline', () => {
    const self = renderMessageFlowSvg(layoutMessageFlow({ ...flow, messages: [{ ...reply, to: member }] }), 'self');
    expect(self).toMatch(/<path class="flow-arrow-line" d="M (\d+) \d+ h 36 v 14 h -36"/);
    expect(self).toContain('data-direction="self"');
  });

  it('says so when the team has no messages', () => {
    const empty = renderMessageFlowSvg(layoutMessageFlow({ ...flow, messages: [] }), 'empty');
    expect(arrowTags(empty)).toEqual([]);
    expect(empty).toContain('>no messages</text>');
  });
});
