/** The command line is wrong: unknown command or flag, missing or malformed argument (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command whose `--help` explains the usage, if one was recognised. */
    readonly command?: string,
  ) {
    super(message);
  }
}

export interface InputLocation {
  readonly file?: string;
  readonly line?: number;
  /** Field path inside the line. */
  readonly path?: string;
}

/** `file:line N: path`, the form DecodeError and SessionLogRejected use. */
const where = ({ file, line, path }: InputLocation): string => {
  const place = [file, line === undefined ? undefined : `line ${line}`].filter((part) => part !== undefined).join(':');
  return [place === '' ? undefined : place, path].filter((part) => part !== undefined).join(': ');
};

/** The input is wrong: a missing path, a rejected file named on the command line, an unknown session (exit 3). */
export class BadInput extends Error {
  override readonly name = 'BadInput';
  constructor(
    readonly detail: string,
    readonly location: InputLocation = {},
  ) {
    const prefix = where(location);
    super(prefix === '' ? detail : `${prefix}: ${detail}`);
  }
}
