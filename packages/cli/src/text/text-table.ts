import { plural } from './plural';

/** A cell and how it is drawn; the width counts the text, not the escape codes a style adds. */
export interface Cell {
  readonly text: string;
  readonly style?: (text: string) => string;
}

export type Row = ReadonlyArray<string | Cell>;

/** Rows a text table shows before it says how many more there are: human output stays a summary at any size. */
export const textRowLimit = 50;

export interface TableLimit {
  /** Rows shown (default textRowLimit). */
  readonly limit?: number;
  /** Where the person sees every row (default: --json). */
  readonly rest?: string;
}

const cellOf = (value: string | Cell): Cell => (typeof value === 'string' ? { text: value } : value);

/**
 * Columns padded to their widest shown cell, two spaces apart, indented; the last column is not
 * padded. At most `limit` rows, then one line with how many more and where to see them.
 */
export const renderTable = (
  headers: readonly string[],
  rows: readonly Row[],
  indent = '  ',
  table: TableLimit = {},
): string[] => {
  const limit = table.limit ?? textRowLimit;
  const cells = rows.slice(0, limit).map((row) => row.map(cellOf));
  // A loop, not Math.max(...): a spread of many widths overflows the stack.
  const widths = headers.map((header, column) =>
    cells.reduce((width, row) => Math.max(width, row[column]?.text.length ?? 0), header.length),
  );
  const line = (row: readonly Cell[]): string =>
    indent +
    row
      .map((cell, column) => {
        const padded = column === row.length - 1 ? cell.text : cell.text.padEnd(widths[column] ?? 0);
        return cell.style === undefined ? padded : cell.style(padded);
      })
      .join('  ')
      .trimEnd();
  const hidden = rows.length - cells.length;
  const more =
    hidden > 0 ? [`${indent}… ${plural(hidden, 'more row')} (${table.rest ?? '--json lists every row'})`] : [];
  return [line(headers.map((text) => ({ text }))), ...cells.map(line), ...more];
};

/** The line a renderer adds when it cut its rows before building them (large lists: only the shown rows are built). */
export const hiddenRows = (hidden: number, indent: string, rest: string): string[] =>
  hidden > 0 ? [`${indent}… ${plural(hidden, 'more row')} (${rest})`] : [];
