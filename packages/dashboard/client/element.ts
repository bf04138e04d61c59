export type Child = Node | string | number | null | undefined | false;

/** Build an element; text children become text nodes (never parsed as markup). */
export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | undefined>> = {},
  ...children: readonly Child[]
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
};

/** The element with this id, of this type; a missing one is a broken page, so it throws. */
export const byId = <T extends HTMLElement>(id: string, type: { new (): T }): T => {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return element;
};

export const formatTime = (time: number | undefined): string =>
  time === undefined || time === 0 ? '—' : new Date(time).toISOString().replace('T', ' ').replace('Z', '');
