/** A cell and how it is drawn; the width counts the text, not the escape codes a style adds. */
export interface Cell {
  readonly text: string;
  readonly style?: (text: string) => string;
}

export type Row = ReadonlyArray<string | Cell>;

const cellOf = (value: string | Cell): Cell => (typeof value === 'string' ? { text: value } : value);

/** Columns padded to their widest cell, two spaces apart, indented; the last column is not padded. */
export const renderTable = (headers: readonly string[], rows: readonly Row[], indent = '  '): string[] => {
  const cells = rows.map((row) => row.map(cellOf));
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => row[column]?.text.length ?? 0)));
  const line = (row: readonly Cell[]): string =>
    indent +
    row
      .map((cell, column) => {
        const padded = column === row.length - 1 ? cell.text : cell.text.padEnd(widths[column] ?? 0);
        return cell.style === undefined ? padded : cell.style(padded);
      })
      .join('  ')
      .trimEnd();
  return [line(headers.map((text) => ({ text }))), ...cells.map(line)];
};
