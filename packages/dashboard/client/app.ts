import { apiPath, getJson, getText } from './api-client.js';
import {
  AuditAnswer, FailuresAnswer, InboxAnswer, LegacyMailboxAnswer, Overview, OverviewAnswer, SessionSummary, SessionsAnswer, Team, TeamsAnswer,
} from './api-shapes.js';
import { byId, el } from './element.js';
import { openEventLinksIn } from './event-viewer.js';
import { LiveState, followChanges } from './live-updates.js';
import { renderAudit } from './render-audit.js';
import { renderFailures } from './render-failures.js';
import { renderSessionSelect, renderTimeline } from './render-inbox.js';
import { renderLegacyMailbox } from './render-legacy-mailbox.js';
import { renderRoster, renderTaskBoard, renderTeamSelect } from './render-team.js';

const page = {
  liveStatus: byId('live-status', HTMLElement),
  checkpoint: byId('checkpoint', HTMLElement),
  loadError: byId('load-error', HTMLElement),
  overview: byId('overview', HTMLElement),
  teamSelect: byId('team-select', HTMLSelectElement),
  roster: byId('roster-body', HTMLTableSectionElement),
  taskBoard: byId('task-board', HTMLElement),
  flow: byId('message-flow', HTMLElement),
  sessionSelect: byId('session-select', HTMLSelectElement),
  timeline: byId('inbox-timeline', HTMLOListElement),
  legacy: byId('legacy-body', HTMLTableSectionElement),
  audit: byId('audit-body', HTMLTableSectionElement),
  failures: byId('failures', HTMLElement),
  eventViewer: byId('event-viewer', HTMLElement),
};

/** What the person picked; kept across refreshes while it still exists. */
const selection: { teamId?: string; sessionId?: string } = {};

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
    ...overviewItems.map(([key, label]) => el('div', { class: 'overview-item', 'data-key': key }, el('strong', {}, overview[key]), ` ${label}`)),
  );
};

const chooseTeam = (teams: readonly Team[]): Team | undefined => {
  const kept = teams.find((team) => team.teamId === selection.teamId);
  const team = kept ?? teams[0];
  selection.teamId = team?.teamId;
  return team;
};

/** The picked session if it still has entries, else the team's first session with any, else the first. */
const chooseSession = (sessions: readonly SessionSummary[]): string | undefined => {
  const kept = sessions.find((session) => session.id === selection.sessionId);
  const session = kept ?? sessions.find((candidate) => candidate.teamId === selection.teamId) ?? sessions[0];
  selection.sessionId = session?.id;
  return session?.id;
};

const loadFlow = async (teamId: string | undefined): Promise<void> => {
  if (teamId === undefined) {
    page.flow.replaceChildren(el('p', { class: 'empty' }, 'no team in the store yet'));
    return;
  }
  // Markup drawn by the server from the views, with every text escaped there.
  page.flow.innerHTML = await getText(apiPath('/api/message-flow.svg', { teamId }));
};

const loadInbox = async (sessionId: string | undefined): Promise<void> => {
  const inbox = sessionId === undefined ? undefined : await getJson<InboxAnswer>(apiPath('/api/inbox', { sessionId }));
  renderTimeline(page.timeline, inbox?.timeline);
};

const load = async (): Promise<void> => {
  const [overview, teams, sessions, legacy, audit, failures] = await Promise.all([
    getJson<OverviewAnswer>('/api/overview'),
    getJson<TeamsAnswer>('/api/teams'),
    getJson<SessionsAnswer>(apiPath('/api/sessions', { withInbox: 'true' })),
    getJson<LegacyMailboxAnswer>('/api/legacy-mailbox'),
    getJson<AuditAnswer>('/api/audit'),
    getJson<FailuresAnswer>('/api/failures'),
  ]);
  renderOverview(overview.overview);
  const team = chooseTeam(teams.teams);
  renderTeamSelect(page.teamSelect, teams.teams, team?.teamId);
  renderRoster(page.roster, team);
  renderTaskBoard(page.taskBoard, team);
  const sessionId = chooseSession(sessions.sessions);
  renderSessionSelect(page.sessionSelect, sessions.sessions, sessionId);
  renderLegacyMailbox(page.legacy, legacy.messages);
  renderAudit(page.audit, audit.findings);
  renderFailures(page.failures, failures.failures);
  await Promise.all([loadFlow(team?.teamId), loadInbox(sessionId)]);
  page.checkpoint.textContent = overview.checkpoint === null ? 'empty store' : `at ${overview.checkpoint}`;
  document.body.dataset['checkpoint'] = overview.checkpoint ?? '';
};

/** One refresh at a time; changes that arrive meanwhile cause exactly one more. */
const refresher = (() => {
  let running = false;
  let again = false;
  return async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
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
      running = false;
    }
  };
})();

const showLiveState = (state: LiveState): void => {
  page.liveStatus.dataset['state'] = state;
  page.liveStatus.textContent = state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'reconnecting…';
};

page.teamSelect.addEventListener('change', () => {
  selection.teamId = page.teamSelect.value;
  delete selection.sessionId;
  void refresher();
});
page.sessionSelect.addEventListener('change', () => {
  selection.sessionId = page.sessionSelect.value;
  void loadInbox(selection.sessionId);
});
openEventLinksIn(page.eventViewer);
showLiveState('connecting');
followChanges(() => void refresher(), showLiveState);
// Load at once too: the page still shows the views if the event stream cannot connect.
void refresher();
