/** How text output marks what matters; ANSI colours only on a terminal that has not asked for NO_COLOR. */
export interface TextStyle {
  readonly heading: (text: string) => string;
  /** Something a person must notice: an undelivered message, a failure, a finding. */
  readonly alert: (text: string) => string;
  readonly dim: (text: string) => string;
}

export const plainStyle: TextStyle = { heading: (text) => text, alert: (text) => text, dim: (text) => text };

const ansi = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;

export const ansiStyle: TextStyle = { heading: ansi('1'), alert: ansi('1;31'), dim: ansi('2') };

export const styleFor = (isTerminal: boolean, env: Readonly<Record<string, string | undefined>>): TextStyle =>
  isTerminal && (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb' ? ansiStyle : plainStyle;
