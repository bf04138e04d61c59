/**
 * When each Team message shape was written (docs/rules.md#era-rules). Boundaries are UTC
 * midnights of the dates that rule gives; callers may pass their own rules.
 */
export interface EraRules {
  /** From this time no `team/message/queued` is written; a `team-message` is then only a late legacy delivery. */
  readonly mailboxEraEnd: number;
  /** `team-relay` sources exist from this time. */
  readonly teamRelayEraStart: number;
  /** Lowest format version that writes `agent-message` sources. */
  readonly agentMessageMinVersion: number;
  /** Lowest format version that writes `team-relay` sources. */
  readonly teamRelayMinVersion: number;
  /** Lowest format version that writes version-2 Team records. */
  readonly teamRecordV2MinVersion: number;
}

export const referenceEraRules: EraRules = {
  mailboxEraEnd: Date.UTC(2026, 8, 26),
  teamRelayEraStart: Date.UTC(2026, 8, 27),
  agentMessageMinVersion: 3,
  teamRelayMinVersion: 4,
  teamRecordV2MinVersion: 3,
};

/** What the era check knows about one event. Unknown values are not judged. */
export interface EraContext {
  readonly formatVersion?: number;
  /** Undefined for events of a normalised fixture, which carry no time. */
  readonly time?: number;
}

const iso = (time: number): string => new Date(time).toISOString();

/**
 * Why a peer source kind does not belong to its log's era, or undefined. `lateLegacyDelivery`: the
 * named team's Lead log queued this message, so a `team-message` after the mailbox era is the late
 * version-2 delivery of docs/rules.md#legacy-mailbox-read-only, not an anomaly.
 */
export const sourceKindEraViolation = (
  kind: string,
  context: EraContext,
  lateLegacyDelivery: boolean,
  rules: EraRules = referenceEraRules,
): string | undefined => {
  const { formatVersion, time } = context;
  switch (kind) {
    case 'team-message':
      return time !== undefined && time >= rules.mailboxEraEnd && !lateLegacyDelivery
        ? `team-message at ${iso(time)} is after the mailbox era (ended ${iso(rules.mailboxEraEnd)}) and no queued record of its team holds it`
        : undefined;
    case 'agent-message':
      return formatVersion !== undefined && formatVersion < rules.agentMessageMinVersion
        ? `agent-message in a V${formatVersion} log (written from V${rules.agentMessageMinVersion} on)`
        : undefined;
    case 'team-relay':
      if (formatVersion !== undefined && formatVersion < rules.teamRelayMinVersion) {
        return `team-relay in a V${formatVersion} log (written from V${rules.teamRelayMinVersion} on)`;
      }
      return time !== undefined && time < rules.teamRelayEraStart
        ? `team-relay at ${iso(time)} is before the relay era (from ${iso(rules.teamRelayEraStart)})`
        : undefined;
    default:
      return undefined;
  }
};

/** Why a Team record does not belong to its log's era, or undefined. */
export const teamRecordEraViolation = (
  record: { readonly type: string; readonly version: number },
  context: EraContext,
  rules: EraRules = referenceEraRules,
): string | undefined => {
  const { formatVersion, time } = context;
  if (record.version === 2 && formatVersion !== undefined && formatVersion < rules.teamRecordV2MinVersion) {
    return `version-2 ${record.type} in a V${formatVersion} log (version 2 is written from V${rules.teamRecordV2MinVersion} on)`;
  }
  if (time === undefined || time < rules.mailboxEraEnd) return undefined;
  if (record.type === 'team/message/queued')
    return `team/message/queued at ${iso(time)}, after the mailbox era ended (${iso(rules.mailboxEraEnd)})`;
  if (record.type === 'team/message/delivered' && record.version === 1) {
    return `version-1 team/message/delivered at ${iso(time)}; late acknowledgements after the mailbox era are version 2`;
  }
  return undefined;
};

/**
 * Whether a Team record of this version, with the time and normalised flag of its event, could
 * break an era rule under some header (teamRecordEraViolation): only a version-2 record, or one timed
 * (not normalised) at or after the mailbox era's end, can.
 */
export const mayBreakRecordEra = (
  version: number,
  event: { readonly time: number; readonly normalised: boolean },
  rules: EraRules = referenceEraRules,
): boolean => version === 2 || (!event.normalised && event.time >= rules.mailboxEraEnd);
