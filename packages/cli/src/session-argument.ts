import { SessionId } from '@teamlog/events';
import { usageError } from './cli-errors';

/** A `<session>` argument as a SessionId. */
export const sessionArgument = (text: string | undefined, command: string): SessionId => {
  if (!SessionId.is(text)) throw usageError(`${command}: the session id must not be empty`, command);
  return text;
};
