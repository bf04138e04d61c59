/**
 * The store's log for a command: the first retry or reconnect of each kind goes to stderr once,
 * so a person sees why a command waits, without one line per retry (about 25 in half a minute).
 * The kind is the line up to its first parenthesis (the operation, not the attempt); the store's
 * other lines (a dropped idle connection, which the next query notices anyway) are not shown.
 */
export const storeRetryNotice = (write: (text: string) => void): ((line: string) => void) => {
  const shown = new Set<string>();
  return (line) => {
    if (!/; (retry \d+|reconnecting) in \d+ ms$/.test(line)) return;
    const kind = line.split('(')[0] ?? line;
    if (shown.has(kind)) return;
    shown.add(kind);
    write(`${line} (later retries are not shown)\n`);
  };
};
