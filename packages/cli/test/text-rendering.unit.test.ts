import { renderAudit } from '../src/text/audit-text';
import { inboxCounts, renderInbox, renderInboxCounts } from '../src/text/inbox-text';
import { renderLegacyMailbox } from '../src/text/legacy-mailbox-text';
import { renderReplaySummary } from '../src/text/replay-summary-text';
import { renderRoster } from '../src/text/roster-text';
import { renderSessions } from '../src/text/sessions-text';
import { renderTasks } from '../src/text/tasks-text';
import { renderTable } from '../src/text/text-table';
import { ansiStyle, plainStyle, styleFor } from '../src/text/text-style';
import { replayTotals, sessionJson } from '../src/build-replay-document';
import {
  importedResult,
  markingStyle,
  rejectedResult,
  sampleAudit,
  sampleDocument,
  sampleInbox,
  sampleTeam,
} from './sample-documents';

describe('renderTable', () => {
  it('pads every column but the last to its widest cell, two spaces apart', () => {
    expect(
      renderTable(
        ['A', 'BB'],
        [
          ['xxx', 'y'],
          ['z', 'long'],
        ],
        '',
      ),
    ).toEqual(['A    BB', 'xxx  y', 'z    long']);
  });

  it('pads before styling so escape codes do not shift the columns', () => {
    const [, row] = renderTable(['NAME', 'X'], [[{ text: 'a', style: (text) => `[${text}]` }, 'b']], '');
    expect(row).toBe('[a   ]  b');
  });
});

describe('styleFor', () => {
  it('colours only a terminal that has not asked for NO_COLOR', () => {
    expect(styleFor(true, {})).toBe(ansiStyle);
    expect(styleFor(false, {})).toBe(plainStyle);
    expect(styleFor(true, { NO_COLOR: '1' })).toBe(plainStyle);
    expect(styleFor(true, { TERM: 'dumb' })).toBe(plainStyle);
  });
});

describe('renderLegacyMailbox', () => {
  it('highlights undelivered messages and counts them in the heading', () => {
    const lines = renderLegacyMailbox(sampleTeam, markingStyle);
    expect(lines[0]).toContain('<<2 messages, 1 undelivered>>');
    const undelivered = lines.find((line) => line.includes('msg-2'));
    expect(undelivered).toContain('<<! UNDELIVERED');
    expect(undelivered).toMatch(/9\s+-\s+no$/);
    const delivered = lines.find((line) => line.includes('msg-1'));
    expect(delivered).not.toContain('<<');
    expect(delivered).toMatch(/4\s+6\s+yes$/);
  });

  it('says so when the team has no legacy messages', () => {
    expect(renderLegacyMailbox({ ...sampleTeam, legacyMessages: [] }, markingStyle)).toEqual([
      '  Legacy mailbox: empty',
    ]);
  });
});

describe('renderRoster', () => {
  it('lists members in order with a failed phase highlighted and its error', () => {
    const lines = renderRoster(sampleTeam, markingStyle);
    expect(lines[0]).toBe('  Roster: 2 members');
    expect(lines[2]).toContain('reviewer');
    expect(lines[3]).toContain('<<failed');
    expect(lines[3]).toMatch(/quota exceeded$/);
  });
});

describe('renderTasks', () => {
  it('shows revision, status, owner and blockers', () => {
    const lines = renderTasks(sampleTeam, markingStyle);
    expect(lines[2]).toMatch(/^\s+task-1\s+2\s+in_progress\s+m-1\s+-\s+Review$/);
  });
});

describe('inbox rendering', () => {
  it('counts messages, peer messages and pending ones per session', () => {
    expect(inboxCounts(sampleInbox)).toEqual([
      { sessionId: 'm-1', messages: 2, peer: 1, pending: 1 },
      { sessionId: 'lead-1', messages: 1, peer: 0, pending: 0 },
    ]);
  });

  it('lists the sessions with peer messages first and summarises the rest beyond the limit', () => {
    const lines = renderInboxCounts(sampleInbox, markingStyle, 1);
    expect(lines[0]).toBe('#Inboxes: 3 messages in 2 sessions (1 from teammates or peers, 1 pending)#');
    expect(lines[2]).toMatch(/^\s+m-1\s+2\s+1\s+<<1>>$/);
    expect(lines[3]).toBe('~  … 1 more session (teamlog inbox <session>, or --json)~');
  });

  it("shows one session's inbox with pending entries highlighted", () => {
    const lines = renderInbox('m-1', sampleInbox.slice(0, 2), markingStyle);
    expect(lines[0]).toBe('#Inbox of m-1: 2 messages#');
    expect(lines[3]).toMatch(/team-message\s+lead\s+next-turn\s+<<pending>>$/);
  });
});

describe('renderAudit', () => {
  it('says when there are no findings', () => {
    expect(renderAudit([], markingStyle)).toEqual(['#Audit: no findings#']);
  });

  it('lists each finding with code, session, seq, message and detail', () => {
    const lines = renderAudit(sampleAudit, markingStyle);
    expect(lines[0]).toBe('#Audit: <<1 finding>>#');
    expect(lines[2]).toMatch(/<<sender-not-in-team>>\s+m-1\s+7\s+x-1\s+sender outsider/);
  });

  it('explains each code that occurs in one sentence, after the table', () => {
    const lines = renderAudit([...sampleAudit, ...sampleAudit], markingStyle);
    expect(lines.slice(4)).toEqual([
      '  <<sender-not-in-team>>: The sender is neither the Lead nor a member of the team the message was accepted for.',
    ]);
  });

  it('shows a header finding (seq -1) as "header"', () => {
    expect(renderAudit([{ ...(sampleAudit[0] as (typeof sampleAudit)[number]), seq: -1 }], plainStyle)[2]).toMatch(
      /m-1\s+header\s+x-1/,
    );
  });
});

describe('renderSessions', () => {
  it('groups rejected files by reason, a few each, and leaves out files that are not session logs', () => {
    const results = [
      importedResult({
        recovery: { reason: 'torn-tail', line: 7, detail: '', keptEvents: 5, droppedLines: 1 },
        file: 'torn/session.jsonl',
      }),
      ...Array.from({ length: 7 }, (_, index) =>
        rejectedResult(`p${index}.jsonl`, 'prefix-mismatch', `p${index}.jsonl:line 1: differs`),
      ),
      rejectedResult('notes.jsonl', 'not-a-session-log', 'notes'),
    ];
    const lines = renderSessions(results.map(sessionJson), replayTotals(results), markingStyle);
    expect(lines[0]).toBe(
      '#Sessions: 9 files read, 1 imported (10 events appended), 1 recovered, 7 rejected, 1 not session logs#',
    );
    expect(lines).toContain('  ~recovered~ torn/session.jsonl: torn-tail at line 7, kept 5 events');
    expect(lines).toContain('  <<rejected: prefix-mismatch>> (7 files)');
    expect(lines.filter((line) => line.includes(':line 1: differs'))).toHaveLength(5);
    expect(lines).toContain('~    … 2 more (--json lists every file)~');
    expect(lines.join('\n')).not.toContain('notes');
  });
});

describe('renderReplaySummary', () => {
  it('shows sessions, every team with roster, tasks, legacy mailbox and failure, inboxes, audit and the store', () => {
    const text = renderReplaySummary(sampleDocument(), plainStyle);
    const order = [
      'Sessions:',
      'Teams: 1 team',
      'Team lead-1 (Lead idle)',
      'Roster: 2 members',
      'Tasks: 1 task',
      'Legacy mailbox',
      '! UNDELIVERED',
      'Failure at seq 12 (team/task)',
      'Inboxes:',
      'Audit: 1 finding',
      'Store /tmp/t.db at position 42/42',
    ];
    const positions = order.map((part) => text.indexOf(part));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('states the --as-of moment and an empty store', () => {
    const text = renderReplaySummary(
      sampleDocument({ teams: [], position: null, asOf: '2026-09-21T00:00:00.000Z' }),
      plainStyle,
    );
    expect(text).toContain('Teams: none (no log has a team record)');
    expect(text).toContain('Store /tmp/t.db is empty; views as of 2026-09-21T00:00:00.000Z');
  });
});
