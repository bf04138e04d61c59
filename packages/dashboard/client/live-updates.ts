export type LiveState = 'connecting' | 'live' | 'reconnecting';

/**
 * Follow the server's "change" events. `hello` comes first on every (re)connection, so a change
 * missed while disconnected is caught up by the refresh it triggers.
 */
export const followChanges = (
  onChange: () => void,
  onState: (state: LiveState, checkpoint?: string) => void,
): EventSource => {
  const source = new EventSource('/api/stream');
  const checkpointOf = (message: MessageEvent<string>): string | undefined => {
    const data: unknown = JSON.parse(message.data);
    return typeof data === 'object' && data !== null && 'checkpoint' in data && typeof data.checkpoint === 'string'
      ? data.checkpoint
      : undefined;
  };
  source.addEventListener('hello', (message) => {
    onState('live', checkpointOf(message));
    onChange();
  });
  source.addEventListener('change', (message) => {
    onState('live', checkpointOf(message));
    onChange();
  });
  source.addEventListener('error', () => onState('reconnecting'));
  return source;
};
