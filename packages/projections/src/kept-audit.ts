import { type MessageId, type SessionId, type TeamId, isPeerSource, leadOf } from '@teamlog/events';
import type { InboxEntry } from '@teamlog/domain';
import {
  type AuditContext,
  type AuditFinding,
  acceptanceFindings,
  checkFinding,
  compareFindings,
  duplicateFinding,
  mismatchFinding,
  problemFinding,
  pushRecordEraFindings,
  reusedIdFinding,
  revokedFindings,
} from './attribution-audit';
import { compareText } from './compare-text';
import { type EraRules, referenceEraRules } from './era-rules';
import { type AcceptedMessage, senderOf } from './inbox-view';
import type { ProjectionState } from './projection-state';
import { type SessionFacts, type SessionHeaderFacts, inheritedCut } from './session-facts';
import { type TeamDirectory, teamDirectory } from './team-directory';
import type { TeamProjection } from './team-projection';
import { revokedSessions, visibleState } from './visible-state';
import { identityOf } from './object-identity';

/** One session's acceptances as far as they were audited, and what their findings depended on. */
interface SessionAudit {
  readonly entries: readonly InboxEntry[];
  readonly cut: number;
  readonly header: SessionHeaderFacts | undefined;
  /** The teams its findings read (its own and the ones its sources name), as they were then. */
  teams: string;
  readonly named: Set<TeamId>;
  /** Entries below this index are audited. */
  done: number;
  readonly perEntry: AuditFinding[];
  readonly duplicates: AuditFinding[];
  /** Per message id, the seq of its first peer acceptance (the duplicate check). */
  readonly firstSeq: Map<MessageId, number>;
  /** Per message id, the peer acceptances teamlog wrote (the reused-id check). */
  readonly accepted: Map<MessageId, AcceptedMessage[]>;
}

/** One session's facts as their findings were taken. */
interface FactsAudit {
  readonly problems: SessionFacts['problems'];
  readonly checks: SessionFacts['acceptanceProblems'];
  readonly findings: readonly AuditFinding[];
}

/** One Lead stream's Team records and mismatches as far as they were audited. */
interface TeamAudit {
  readonly records: TeamProjection['records'];
  readonly mismatches: TeamProjection['mismatches'];
  readonly header: SessionHeaderFacts | undefined;
  recordsDone: number;
  mismatchesDone: number;
  readonly eras: AuditFinding[];
  readonly delivered: AuditFinding[];
}

/** Who a team's roster names and which legacy messages it queued: what an acceptance's findings read of a team. */
const teamSignature = (state: ProjectionState, directory: TeamDirectory, teamId: TeamId): string => {
  const names = directory.team(teamId)?.names;
  const messages = state.teams.get(leadOf(teamId))?.state.messages;
  const roster = names === undefined ? '-' : [...names].map(([id, name]) => `${id}=${name}`).join(',');
  return `${teamId}:${roster}:${messages === undefined ? '-' : `${identityOf(messages)}/${messages.size}`}`;
};

/**
 * The attribution audit kept as the views grow (docs/projections.md#kept-audit): each session's
 * acceptances, each Lead stream's records and each session's problems are audited once, and again
 * only when what their findings read changed (the session's header or fork cut, the roster or
 * legacy mailbox of a team they name, a revocation). A read then costs the sessions and teams, not
 * the events: what `readAudit` recomputes whole, this equals (a property test holds it to that).
 * The views' folds are linear (updated in place), so it keeps only what it can check again at each
 * read: the identity and length of the arrays the folds extend.
 */
export class KeptAudit {
  private revoked = '';
  private sessions = new Map<SessionId, SessionAudit>();
  private facts = new Map<SessionId, FactsAudit>();
  private teams = new Map<SessionId, TeamAudit>();
  private owners = new Map<MessageId, Set<SessionId>>();
  private last: { readonly findings: readonly AuditFinding[]; readonly count: number } | undefined;

  constructor(readonly rules: EraRules = referenceEraRules) {}

  /** The findings `readAudit(everything, rules)` gives, in its order. */
  read(everything: ProjectionState): readonly AuditFinding[] {
    return this.update(everything).findings;
  }

  /** How many findings `read` gives, without listing them. */
  count(everything: ProjectionState): number {
    return this.update(everything).count;
  }

  private update(everything: ProjectionState): { readonly findings: readonly AuditFinding[]; readonly count: number } {
    const revoked = revokedSessions(everything);
    const key = revoked.map((session) => `${session.sessionId}@${session.seq}`).join(',');
    if (key !== this.revoked) this.forget(key);
    const state = visibleState(everything);
    const context: AuditContext = { state, directory: teamDirectory(state), rules: this.rules };
    const changed = [this.updateSessions(context), this.updateFacts(state), this.updateTeams(context)].some(Boolean);
    if (this.last !== undefined && !changed) return this.last;
    this.last = this.assemble(everything);
    return this.last;
  }

  private forget(revoked: string): void {
    this.revoked = revoked;
    this.sessions = new Map();
    this.facts = new Map();
    this.teams = new Map();
    this.owners = new Map();
    this.last = undefined;
  }

  private updateSessions(context: AuditContext): boolean {
    const { state } = context;
    const signatures = new Map<TeamId, string>();
    const signature = (teamId: TeamId): string => {
      const known = signatures.get(teamId);
      if (known !== undefined) return known;
      const computed = teamSignature(state, context.directory, teamId);
      signatures.set(teamId, computed);
      return computed;
    };
    const teamsOf = (id: SessionId, named: ReadonlySet<TeamId>): string =>
      [
        ...context.directory.teamsOf(id).map((team) => signature(team.teamId)),
        '#',
        ...[...named].sort(compareText).map(signature),
      ].join('|');
    let changed = false;
    for (const id of [...this.sessions.keys()]) {
      if (state.inboxes.has(id)) continue;
      this.drop(id);
      changed = true;
    }
    for (const [id, inbox] of state.inboxes) {
      const facts = state.sessions.get(id);
      const entries = inbox.state.entries;
      const cut = facts === undefined ? 0 : inheritedCut(facts);
      let kept = this.sessions.get(id);
      if (
        kept === undefined ||
        kept.entries !== entries ||
        kept.cut !== cut ||
        kept.header !== facts?.header ||
        kept.done > entries.length ||
        kept.teams !== teamsOf(id, kept.named)
      ) {
        this.drop(id);
        kept = {
          entries,
          cut,
          header: facts?.header,
          teams: '',
          named: new Set(),
          done: 0,
          perEntry: [],
          duplicates: [],
          firstSeq: new Map(),
          accepted: new Map(),
        };
        this.sessions.set(id, kept);
        changed = true;
      }
      if (kept.done === entries.length && kept.teams !== '') continue;
      for (let index = kept.done; index < entries.length; index += 1) {
        const entry = entries[index] as InboxEntry;
        const detail = inbox.details[index];
        if (detail === undefined || entry.acceptedSeq < cut || !isPeerSource(entry.source)) continue;
        this.audit(context, kept, { sessionId: id, index, entry, detail });
      }
      changed ||= kept.done !== entries.length;
      kept.done = entries.length;
      kept.teams = teamsOf(id, kept.named);
    }
    return changed;
  }

  private audit(context: AuditContext, kept: SessionAudit, accepted: AcceptedMessage): void {
    const { messageId } = accepted.detail;
    const named = senderOf(accepted.entry.source).teamId;
    if (named !== undefined) kept.named.add(named);
    kept.perEntry.push(...acceptanceFindings(context, accepted));
    const first = kept.firstSeq.get(messageId);
    if (first === undefined) kept.firstSeq.set(messageId, accepted.entry.acceptedSeq);
    else kept.duplicates.push(duplicateFinding(accepted, first));
    if (accepted.entry.origin !== 'accepted') return;
    const same = kept.accepted.get(messageId);
    if (same !== undefined) {
      same.push(accepted);
      return;
    }
    kept.accepted.set(messageId, [accepted]);
    const owners = this.owners.get(messageId) ?? new Set<SessionId>();
    owners.add(accepted.sessionId);
    this.owners.set(messageId, owners);
  }

  private drop(id: SessionId): void {
    const kept = this.sessions.get(id);
    if (kept === undefined) return;
    this.sessions.delete(id);
    for (const messageId of kept.accepted.keys()) {
      const owners = this.owners.get(messageId);
      owners?.delete(id);
      if (owners?.size === 0) this.owners.delete(messageId);
    }
  }

  private updateFacts(state: ProjectionState): boolean {
    let changed = false;
    const next = new Map<SessionId, FactsAudit>();
    for (const [id, facts] of state.sessions) {
      const kept = this.facts.get(id);
      if (kept !== undefined && kept.problems === facts.problems && kept.checks === facts.acceptanceProblems) {
        next.set(id, kept);
        continue;
      }
      changed = true;
      next.set(id, {
        problems: facts.problems,
        checks: facts.acceptanceProblems,
        findings: [
          ...(facts.acceptanceProblems ?? []).map((problem) => checkFinding(facts, problem)),
          ...facts.problems.map((problem) => problemFinding(facts, problem)),
        ],
      });
    }
    changed ||= next.size !== this.facts.size;
    this.facts = next;
    return changed;
  }

  private updateTeams(context: AuditContext): boolean {
    let changed = false;
    const next = new Map<SessionId, TeamAudit>();
    for (const [lead, team] of context.state.teams) {
      const header = context.state.sessions.get(leadOf(team.state.teamId))?.header;
      let kept = this.teams.get(lead);
      if (
        kept === undefined ||
        kept.records !== team.records ||
        kept.mismatches !== team.mismatches ||
        kept.header !== header ||
        kept.recordsDone > team.records.length ||
        kept.mismatchesDone > team.mismatches.length
      ) {
        kept = {
          records: team.records,
          mismatches: team.mismatches,
          header,
          recordsDone: 0,
          mismatchesDone: 0,
          eras: [],
          delivered: [],
        };
        changed = true;
      }
      pushRecordEraFindings(context, team, kept.recordsDone, kept.eras);
      for (let index = kept.mismatchesDone; index < team.mismatches.length; index += 1) {
        const mismatch = team.mismatches[index];
        if (mismatch !== undefined) kept.delivered.push(mismatchFinding(team, mismatch));
      }
      changed ||= kept.recordsDone !== team.records.length || kept.mismatchesDone !== team.mismatches.length;
      kept.recordsDone = team.records.length;
      kept.mismatchesDone = team.mismatches.length;
      next.set(lead, kept);
    }
    changed ||= next.size !== this.teams.size;
    this.teams = next;
    return changed;
  }

  /** teamlog gives every message it accepts a fresh id: each later session's acceptances of one are copies. */
  private reusedIds(): AuditFinding[] {
    const found: AuditFinding[] = [];
    for (const [messageId, owners] of this.owners) {
      if (owners.size < 2) continue;
      const [first, ...others] = [...owners].sort(compareText);
      const earlier = first === undefined ? undefined : this.sessions.get(first)?.accepted.get(messageId)?.[0];
      if (earlier === undefined) continue;
      for (const other of others)
        for (const accepted of this.sessions.get(other)?.accepted.get(messageId) ?? [])
          found.push(reusedIdFinding(accepted, earlier.sessionId, earlier.entry.acceptedSeq));
    }
    return found;
  }

  private assemble(everything: ProjectionState): { readonly findings: AuditFinding[]; readonly count: number } {
    const sessions = [...this.sessions.values()];
    const findings = [
      ...sessions.flatMap((kept) => kept.perEntry),
      ...sessions.flatMap((kept) => kept.duplicates),
      ...this.reusedIds(),
      ...[...this.facts.values()].flatMap((kept) => kept.findings),
      ...[...this.teams.values()].flatMap((kept) => [...kept.eras, ...kept.delivered]),
      ...revokedFindings(everything),
    ].sort(compareFindings);
    return { findings, count: findings.length };
  }
}
