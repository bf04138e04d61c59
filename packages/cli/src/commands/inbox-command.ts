import { asOfOption } from '../as-of-argument';
import { badInput } from '../cli-errors';
import { booleanFlag } from '../argument-parser';
import { asOfFlag, jsonFlag, storeFlag } from '../common-flags';
import { defineCommand } from '../command';
import { ExitCode } from '../exit-code';
import { writeJson } from '../json-output';
import { withStore } from '../open-teamlog-store';
import { readViews } from '../read-views';
import { sessionArgument } from '../session-argument';
import { resolveStoreLocation } from '../store-location';
import { renderInbox } from '../text/inbox-text';
import { styleFor } from '../text/text-style';

export const inboxCommand = defineCommand(
  {
    name: 'inbox',
    summary: "Show the messages a session's inbox accepted, in order, with source, sender, list and status.",
    positionals: [{ name: 'session', arity: 'one', description: 'the session id (as `teamlog replay` lists it)' }],
    flags: {
      store: storeFlag,
      json: jsonFlag,
      'as-of': asOfFlag,
      peer: booleanFlag('only Team and peer messages (team-message, agent-message, team-relay)'),
    },
  },
  async ({ positionals, flags }, { io }) => {
    const asOf = asOfOption(flags['as-of'], 'inbox');
    const sessionId = sessionArgument(positionals[0], 'inbox');
    const location = resolveStoreLocation(flags.store, io.env, io.cwd);
    const inbox = await withStore(location, { access: 'read' }, async (opened) => {
      const { views } = await readViews(opened, asOf);
      if (views.session(sessionId) === undefined) throw badInput(`no session "${sessionId}" in the store`);
      return views.inbox({ sessionId, peerOnly: flags.peer });
    });
    if (flags.json) writeJson(io, { sessionId, inbox });
    else io.stdout(`${renderInbox(sessionId, inbox, styleFor(io.stdoutIsTerminal, io.env)).join('\n')}\n`);
    return ExitCode.ok;
  },
);
