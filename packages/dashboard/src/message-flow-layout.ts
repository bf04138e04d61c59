import type { MessageId, SessionId } from '@teamlog/events';
import type { FlowParticipant, FlowStatus, MessageFlow } from './message-flow';

export interface FlowLayoutOptions {
  /** Horizontal distance between two lifelines. */
  readonly laneGap: number;
  readonly margin: number;
  /** Height of the participant boxes at the top. */
  readonly headerHeight: number;
  /** Vertical distance between two messages. */
  readonly rowHeight: number;
  /** Longest label (characters) before it is cut with an ellipsis. */
  readonly labelLimit: number;
}

export const defaultFlowLayoutOptions: FlowLayoutOptions = {
  laneGap: 180,
  margin: 20,
  headerHeight: 44,
  rowHeight: 36,
  labelLimit: 28,
};

export interface LaneLayout {
  readonly participant: FlowParticipant;
  /** The lifeline's x. */
  readonly x: number;
  /** The participant box: left edge and width. */
  readonly boxX: number;
  readonly boxWidth: number;
  readonly label: string;
}

export type ArrowDirection = 'right' | 'left' | 'self';

export interface ArrowLayout {
  /** 1-based position in the flow. */
  readonly order: number;
  readonly messageId: MessageId;
  readonly from: SessionId;
  readonly to: SessionId;
  readonly x1: number;
  readonly x2: number;
  readonly y: number;
  readonly direction: ArrowDirection;
  readonly status: FlowStatus;
  readonly via: 'inbox' | 'legacy-mailbox';
  readonly label: string;
  /** The full description (a tooltip). */
  readonly title: string;
}

export interface FlowLayout {
  readonly width: number;
  readonly height: number;
  readonly lifelineTop: number;
  readonly lifelineBottom: number;
  readonly lanes: readonly LaneLayout[];
  readonly arrows: readonly ArrowLayout[];
}

/** A participant or message the flow names twice or not at all cannot be drawn. */
export class InvalidMessageFlow extends Error {
  override readonly name = 'InvalidMessageFlow';
}

export const cutLabel = (text: string, limit: number): string =>
  text.length <= limit ? text : `${text.slice(0, Math.max(1, limit - 1))}…`;

const laneCenter = (index: number, options: FlowLayoutOptions): number =>
  options.margin + options.laneGap / 2 + index * options.laneGap;

const laneXs = (flow: MessageFlow, options: FlowLayoutOptions): Map<SessionId, number> => {
  const xs = new Map<SessionId, number>();
  flow.participants.forEach((participant, index) => {
    if (xs.has(participant.id)) throw new InvalidMessageFlow(`participant ${participant.id} is listed twice`);
    xs.set(participant.id, laneCenter(index, options));
  });
  return xs;
};

const laneX = (xs: ReadonlyMap<SessionId, number>, id: SessionId, messageId: MessageId): number => {
  const x = xs.get(id);
  if (x === undefined) throw new InvalidMessageFlow(`message ${messageId} names ${id}, who is not a participant`);
  return x;
};

/**
 * A sequence diagram: one lifeline per participant, left to right in the flow's order, and one
 * horizontal arrow per message, top to bottom in the flow's order. Pure: the SVG is drawn from this.
 */
export const layoutMessageFlow = (
  flow: MessageFlow,
  options: FlowLayoutOptions = defaultFlowLayoutOptions,
): FlowLayout => {
  const xs = laneXs(flow, options);
  const names = new Map(flow.participants.map((participant) => [participant.id, participant.name]));
  const boxWidth = options.laneGap - 20;
  const lanes = flow.participants.map((participant, index) => {
    const x = laneCenter(index, options);
    return { participant, x, boxX: x - boxWidth / 2, boxWidth, label: cutLabel(participant.name, options.labelLimit) };
  });
  const lifelineTop = options.margin + options.headerHeight;
  const arrows = flow.messages.map((message, index): ArrowLayout => {
    const x1 = laneX(xs, message.from, message.messageId);
    const x2 = laneX(xs, message.to, message.messageId);
    const direction: ArrowDirection = x1 === x2 ? 'self' : x2 > x1 ? 'right' : 'left';
    const order = index + 1;
    return {
      order,
      messageId: message.messageId,
      from: message.from,
      to: message.to,
      x1,
      x2,
      y: lifelineTop + order * options.rowHeight,
      direction,
      status: message.status,
      via: message.via,
      label: cutLabel(
        `${order}. ${message.via === 'legacy-mailbox' ? 'mailbox' : message.sourceKind} · ${message.status}`,
        options.labelLimit,
      ),
      title: `${names.get(message.from) ?? message.from} → ${names.get(message.to) ?? message.to}: ${message.messageId} (${message.sourceKind}, ${message.status}; ${message.recordedIn} seq ${message.seq})`,
    };
  });
  const lifelineBottom = lifelineTop + (flow.messages.length + 1) * options.rowHeight;
  return {
    width: options.margin * 2 + Math.max(1, flow.participants.length) * options.laneGap,
    height: lifelineBottom + options.margin,
    lifelineTop,
    lifelineBottom,
    lanes,
    arrows,
  };
};
