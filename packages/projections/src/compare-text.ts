/** Code-unit order, so views sort the same way on every machine (no locale). */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
