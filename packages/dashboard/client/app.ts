import { ApiFailed, apiPath, getJson, getText } from './api-client.js';
import type {
  AuditAnswer,
  ChainsAnswer,
  ConversationAnswer,
  FailuresAnswer,
  FlowAnswer,
  InboxAnswer,
  LegacyMailboxAnswer,
  MomentsAnswer,
  Overview,
  OverviewAnswer,
  SessionSummary,
  SessionsAnswer,
  Team,
  TeamsAnswer,
} from './api-shapes.js';
import { byId, el } from './element.js';
import { openEventLinksIn } from './event-viewer.js';
import { type LiveState, followChanges } from './live-updates.js';
import { locationSearch, readLocation } from './page-location.js';
import { renderAudit } from './render-audit.js';
import { renderChains } from './render-chains.js';
import { appendMore, conversationEntries, renderConversation } from './render-conversation.js';
import { renderFailures } from './render-failures.js';
import { renderFlowMessages } from './render-flow-messages.js';
import { renderTimeline } from './render-inbox.js';
import { renderLegacyMailbox } from './render-legacy-mailbox.js';
import { type SessionChoice, renderSessionSelect } from './render-sessions.js';
import { renderRoster, renderTaskBoard, renderTeamSelect, teamLabel } from './render-team.js';
import { TimeControl } from './time-control.js';

const page = {
  liveStatus: byId('live-status', HTMLElement),
  checkpoint: byId('checkpoint', HTMLElement),
  loadError: byId('load-error', HTMLElement),
  overview: byId('overview', HTMLElement),
  teamSelect: byId('team-select', HTMLSelectElement),
  scopeSelect: byId('scope-select', HTMLSelectElement),
  teamName: byId('team-name', HTMLElement),
  roster: byId('roster-body', HTMLTableSectionElement),
  taskBoard: byId('task-board', HTMLElement),
  flow: byId('message-flow', HTMLElement),
  flowMessages: byId('flow-messages', HTMLOListElement),
  sessionSelect: byId('session-select', HTMLSelectElement),
  conversation: byId('conversation', HTMLOListElement),
  timeline: byId('inbox-timeline', HTMLOListElement),
  legacy: byId('legacy-body', HTMLTableSectionElement),
  audit: byId('audit-body', HTMLTableSectionElement),
  chains: byId('chain-body', HTMLTableSectionElement),
  failures: byId('failures', HTMLElement),
  scopeNotes: [...document.querySelectorAll<HTMLElement>('.scope-note')],
  eventViewer: byId('event-viewer', HTMLElement),
};

/** What the person picked, kept in the URL so a link opens the same view. */
const location = readLocation(window.location.search);
/** Session names of the selected team, for the time control's label. */
let sessionNames = new Map<string, string>();

const overviewItems: ReadonlyArray<readonly [keyof Overview, string]> = [
  ['teams', 'teams'],
  ['sessions', 'sessions'],
  ['inboxEntries', 'inbox entries'],
  ['auditFindings', 'audit findings'],
  ['undeliveredLegacyMessages', 'undelivered legacy messages'],
  ['failedTeams', 'failed teams'],
];

const renderOverview = (overview: Overview): void => {
  page.overview.replaceChildren(
    ...overviewItems.map(([key, label]) =>
      el('div', { class: 'overview-item', 'data-key': key }, el('strong', {}, overview[key]), ` ${label}`),
    ),
  );
};

/** The team in the URL; else the most recently active team without a failure; else the first. */
const chooseTeam = (teams: readonly Team[]): Team | undefined => {
  const kept = teams.find((team) => team.teamId === location.teamId);
  if (kept !== undefined) return kept;
  const healthy = teams.filter((team) => team.failure === null);
  const latest = [...healthy].sort((a, b) => (b.lastActive ?? -Infinity) - (a.lastActive ?? -Infinity))[0];
  return latest ?? teams[0];
};

/** The selected team's sessions first (the Lead, then the members), then every other session that has an inbox. */
const sessionChoices = (team: Team | undefined, sessions: readonly SessionSummary[]): SessionChoice[] => {
  const own: SessionChoice[] =
    team === undefined
      ? []
      : [
          { id: team.lead.id, label: 'lead', group: 'team' },
          ...team.members.map((member) => ({ id: member.id, label: member.name, group: 'team' as const })),
        ];
  const ownIds = new Set(own.map((choice) => choice.id));
  const others = sessions
    .filter((session) => !ownIds.has(session.id) && session.inboxEntries > 0)
    .map((session) => ({
      id: session.id,
      label: session.name === undefined ? session.id : `${session.name} · ${session.id}`,
      group: 'other' as const,
    }));
  return [...own, ...others];
};

/** A 404 for one panel (a team or session that did not exist yet at the moment) is shown there, not as a page error. */
const orMissing = async <T>(load: Promise<T>): Promise<T | undefined> => {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiFailed && error.status === 404) return undefined;
    throw error;
  }
};

const asOf = (): Record<string, string | undefined> => ({ asOf: location.at });

const loadFlow = async (teamId: string | undefined): Promise<void> => {
  if (teamId === undefined) {
    page.flow.replaceChildren(el('p', { class: 'empty' }, 'no team in the store yet'));
    renderFlowMessages(page.flowMessages, undefined);
    return;
  }
  const [svg, flow] = await Promise.all([
    orMissing(getText(apiPath('/api/message-flow.svg', { teamId, ...asOf() }))),
    orMissing(getJson<FlowAnswer>(apiPath('/api/message-flow', { teamId, ...asOf() }))),
  ]);
  // Markup drawn by the server from the views, with every text escaped there.
  if (svg === undefined)
    page.flow.replaceChildren(el('p', { class: 'empty' }, 'the team has no record yet at this moment'));
  else page.flow.innerHTML = svg;
  renderFlowMessages(page.flowMessages, flow?.flow);
};

/** The loader of the transcript's next page (from `nextSeq`), appended where the button was; undefined at the end. */
const moreFrom = (sessionId: string, nextSeq: number | undefined): ((button: HTMLButtonElement) => void) | undefined =>
  nextSeq === undefined
    ? undefined
    : (button) => {
        button.disabled = true;
        void getJson<ConversationAnswer>(
          apiPath('/api/conversation', { sessionId, fromSeq: String(nextSeq), ...asOf() }),
        ).then(
          (next) => {
            button.closest('li')?.remove();
            page.conversation.append(...conversationEntries(next.items));
            const more = moreFrom(sessionId, next.nextSeq);
            if (more !== undefined) appendMore(page.conversation, more);
          },
          (error: unknown) => {
            button.disabled = false;
            button.textContent = `could not load the rest: ${error instanceof Error ? error.message : String(error)}; try again`;
          },
        );
      };

const loadSession = async (sessionId: string | undefined): Promise<void> => {
  if (sessionId === undefined) {
    renderConversation(page.conversation, undefined);
    renderTimeline(page.timeline, undefined);
    return;
  }
  const [conversation, inbox] = await Promise.all([
    orMissing(getJson<ConversationAnswer>(apiPath('/api/conversation', { sessionId, ...asOf() }))),
    orMissing(getJson<InboxAnswer>(apiPath('/api/inbox', { sessionId, ...asOf() }))),
  ]);
  // A slower answer for a session the person has since left must not overwrite the one they chose.
  if (sessionId !== location.sessionId) return;
  renderConversation(page.conversation, conversation?.items ?? [], moreFrom(sessionId, conversation?.nextSeq));
  renderTimeline(page.timeline, inbox?.timeline ?? []);
  page.conversation.dataset.sessionId = sessionId;
  page.timeline.dataset.sessionId = sessionId;
};

const keepInUrl = (): void => {
  const search = locationSearch(location);
  if (search !== window.location.search) history.replaceState(null, '', `${window.location.pathname}${search}`);
};

const load = async (): Promise<void> => {
  const [overview, liveTeams, sessions] = await Promise.all([
    getJson<OverviewAnswer>(apiPath('/api/overview', asOf())),
    getJson<TeamsAnswer>('/api/teams'),
    getJson<SessionsAnswer>(apiPath('/api/sessions', { withInbox: 'true', ...asOf() })),
  ]);
  const team = chooseTeam(liveTeams.teams);
  location.teamId = team?.teamId;
  const scoped = location.scope === 'team' ? team?.teamId : undefined;
  // Only the selected team's answer carries its task board.
  const [teamsThen, legacy, audit, chains, failures, moments] = await Promise.all([
    team === undefined ? undefined : getJson<TeamsAnswer>(apiPath('/api/teams', { teamId: team.teamId, ...asOf() })),
    getJson<LegacyMailboxAnswer>(apiPath('/api/legacy-mailbox', { teamId: scoped, ...asOf() })),
    getJson<AuditAnswer>(apiPath('/api/audit', { teamId: scoped, ...asOf() })),
    getJson<ChainsAnswer>('/api/chains'),
    getJson<FailuresAnswer>(apiPath('/api/failures', { teamId: scoped, ...asOf() })),
    team === undefined ? undefined : getJson<MomentsAnswer>(apiPath('/api/moments', { teamId: team.teamId })),
  ]);
  const teamThen = teamsThen?.teams.find((candidate) => candidate.teamId === team?.teamId);
  renderOverview(overview.overview);
  renderTeamSelect(page.teamSelect, liveTeams.teams, team?.teamId);
  page.scopeSelect.value = location.scope;
  page.teamName.textContent = team === undefined ? 'no team in the store yet' : teamLabel(team);
  renderRoster(page.roster, teamThen, team !== undefined);
  renderTaskBoard(page.taskBoard, teamThen);
  const choices = sessionChoices(team, sessions.sessions);
  // A link may name any session of the store (one without an inbox, or on no team): it is kept.
  if (location.sessionId !== undefined && !choices.some((choice) => choice.id === location.sessionId)) {
    choices.push({ id: location.sessionId, label: location.sessionId, group: 'other' });
  }
  sessionNames = new Map(choices.map((choice) => [choice.id, choice.label]));
  if (location.sessionId === undefined) location.sessionId = choices[0]?.id;
  renderSessionSelect(page.sessionSelect, choices, location.sessionId);
  time.show(moments?.moments ?? [], location.at);
  renderLegacyMailbox(page.legacy, legacy.messages, legacy.total);
  renderAudit(page.audit, audit.findings);
  renderChains(page.chains, chains);
  renderFailures(page.failures, failures.failures);
  const scopeText = scoped === undefined ? 'every team' : `team ${team === undefined ? '' : teamLabel(team)}`;
  page.scopeNotes.forEach((note) => (note.textContent = `Showing ${scopeText}.`));
  await Promise.all([loadFlow(team?.teamId), loadSession(location.sessionId)]);
  page.checkpoint.textContent =
    location.at === undefined
      ? overview.checkpoint === null
        ? 'empty store'
        : `at ${overview.checkpoint}`
      : `as of ${location.at} (live at ${overview.checkpoint ?? '—'})`;
  document.body.dataset.checkpoint = overview.checkpoint ?? '';
  keepInUrl();
};

/** One refresh at a time; changes that arrive meanwhile cause exactly one more. */
const refresher = (() => {
  let running: Promise<void> | undefined;
  let again = false;
  return async (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      document.body.dataset.loaded = 'false';
      try {
        do {
          again = false;
          await load();
          page.loadError.hidden = true;
        } while (again);
      } catch (error) {
        page.loadError.hidden = false;
        page.loadError.textContent = `could not load the views: ${error instanceof Error ? error.message : String(error)}`;
      } finally {
        running = undefined;
        document.body.dataset.loaded = 'true';
      }
    })();
    return running;
  };
})();

const time = new TimeControl(
  async (position) => {
    location.at = position;
    await refresher();
  },
  (sessionId) => sessionNames.get(sessionId) ?? sessionId,
);

const showLiveState = (state: LiveState): void => {
  page.liveStatus.dataset.state = state;
  page.liveStatus.textContent = state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'reconnecting…';
};

page.teamSelect.addEventListener('change', () => {
  location.teamId = page.teamSelect.value;
  delete location.sessionId;
  delete location.at;
  void refresher();
});
page.scopeSelect.addEventListener('change', () => {
  location.scope = page.scopeSelect.value === 'all' ? 'all' : 'team';
  void refresher();
});
page.sessionSelect.addEventListener('change', () => {
  location.sessionId = page.sessionSelect.value;
  keepInUrl();
  void loadSession(location.sessionId);
});
openEventLinksIn(page.eventViewer);
showLiveState('connecting');
followChanges(() => void refresher(), showLiveState);
// Load at once too: the page still shows the views if the event stream cannot connect.
void refresher();
