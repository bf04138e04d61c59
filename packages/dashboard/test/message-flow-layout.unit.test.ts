import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import type { FlowMessage, MessageFlow } from '../src/message-flow';
import { type FlowLayoutOptions, InvalidMessageFlow, cutLabel, layoutMessageFlow } from '../src/message-flow-layout';

const lead = 'lead-1' as SessionId;
const reviewer = 'reviewer-1' as SessionId;
const writer = 'writer-1' as SessionId;

const options: FlowLayoutOptions = { laneGap: 100, margin: 10, headerHeight: 40, rowHeight: 30, labelLimit: 24 };

const message = (id: string, from: SessionId, to: SessionId, extra: Partial<FlowMessage> = {}): FlowMessage => ({
  messageId: id as MessageId,
  from,
  to,
  via: 'inbox',
  sourceKind: 'team-relay',
  status: 'claimed',
  time: 0,
  recordedIn: to,
  seq: 0,
  ...extra,
});

const flowOf = (messages: FlowMessage[]): MessageFlow => ({
  teamId: lead as string as TeamId,
  participants: [
    { id: lead, name: 'lead', role: 'lead' },
    { id: reviewer, name: 'reviewer', role: 'member' },
    { id: writer, name: 'writer', role: 'member' },
  ],
  messages,
});

describe('layoutMessageFlow', () => {
  it('puts one lifeline per participant, left to right in the flow order, one lane gap apart', () => {
    const layout = layoutMessageFlow(flowOf([]), options);
    expect(layout.lanes.map((lane) => [lane.participant.name, lane.x])).toEqual([
      ['lead', 60],
      ['reviewer', 160],
      ['writer', 260],
    ]);
    expect(layout.width).toBe(320);
  });

  it('draws each message as a horizontal arrow from the sender to the target, top to bottom in order', () => {
    const layout = layoutMessageFlow(
      flowOf([message('m1', lead, reviewer), message('m2', reviewer, lead), message('m3', lead, writer)]),
      options,
    );
    expect(
      layout.arrows.map(({ order, messageId, x1, x2, y, direction }) => ({ order, messageId, x1, x2, y, direction })),
    ).toEqual([
      { order: 1, messageId: 'm1', x1: 60, x2: 160, y: 80, direction: 'right' },
      { order: 2, messageId: 'm2', x1: 160, x2: 60, y: 110, direction: 'left' },
      { order: 3, messageId: 'm3', x1: 60, x2: 260, y: 140, direction: 'right' },
    ]);
  });

  it('extends the lifelines one row below the last arrow and sizes the drawing to hold them', () => {
    const layout = layoutMessageFlow(flowOf([message('m1', lead, reviewer), message('m2', reviewer, lead)]), options);
    expect(layout.lifelineTop).toBe(50);
    expect(layout.lifelineBottom).toBe(50 + 3 * 30);
    expect(layout.height).toBe(layout.lifelineBottom + 10);
  });

  it('marks a message a session sends to itself as a self arrow on its own lifeline', () => {
    const [arrow] = layoutMessageFlow(flowOf([message('m1', writer, writer)]), options).arrows;
    expect(arrow).toMatchObject({ x1: 260, x2: 260, direction: 'self' });
  });

  it('labels an arrow with its order, kind and status, naming legacy mailbox records "mailbox"', () => {
    const layout = layoutMessageFlow(
      flowOf([
        message('m1', lead, reviewer),
        message('m2', lead, writer, {
          via: 'legacy-mailbox',
          sourceKind: 'team/message/queued',
          status: 'undelivered',
        }),
      ]),
      { ...options, labelLimit: 40 },
    );
    expect(layout.arrows.map((arrow) => arrow.label)).toEqual(['1. team-relay · claimed', '2. mailbox · undelivered']);
    expect(layout.arrows[1]?.title).toBe('lead → writer: m2 (team/message/queued, undelivered; writer-1 seq 0)');
  });

  it('cuts long labels and names with an ellipsis', () => {
    expect(cutLabel('abcdefghij', 6)).toBe('abcde…');
    expect(cutLabel('abcdef', 6)).toBe('abcdef');
    const flow = flowOf([]);
    const layout = layoutMessageFlow(
      { ...flow, participants: [{ id: lead, name: 'a-very-long-member-name-indeed', role: 'lead' }] },
      { ...options, labelLimit: 10 },
    );
    expect(layout.lanes[0]?.label).toBe('a-very-lo…');
  });

  it('refuses a message that names someone who is not a participant', () => {
    const stranger = 'stranger' as SessionId;
    expect(() => layoutMessageFlow(flowOf([message('m1', stranger, lead)]), options)).toThrow(
      new InvalidMessageFlow('message m1 names stranger, who is not a participant'),
    );
  });

  it('refuses a participant listed twice', () => {
    const flow = flowOf([]);
    expect(() =>
      layoutMessageFlow(
        { ...flow, participants: [...flow.participants, { id: lead, name: 'again', role: 'member' }] },
        options,
      ),
    ).toThrow(InvalidMessageFlow);
  });

  it('keeps room for one lane when the team has no participant to draw', () => {
    const layout = layoutMessageFlow({ teamId: 'x' as TeamId, participants: [], messages: [] }, options);
    expect(layout.width).toBe(120);
    expect(layout.arrows).toEqual([]);
  });
});
