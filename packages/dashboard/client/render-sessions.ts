import { el } from './element.js';

/** A session the conversation and inbox panels can show: the selected team's, or another with an inbox. */
export interface SessionChoice {
  readonly id: string;
  readonly label: string;
  readonly group: 'team' | 'other';
}

export const renderSessionSelect = (
  select: HTMLSelectElement,
  choices: readonly SessionChoice[],
  selected: string | undefined,
): void => {
  const option = (choice: SessionChoice) => el('option', { value: choice.id }, choice.label);
  const team = choices.filter((choice) => choice.group === 'team');
  const others = choices.filter((choice) => choice.group === 'other');
  select.replaceChildren(
    ...(team.length === 0 ? [] : [el('optgroup', { label: 'the selected team' }, ...team.map(option))]),
    ...(others.length === 0 ? [] : [el('optgroup', { label: 'other sessions with an inbox' }, ...others.map(option))]),
  );
  if (selected !== undefined) select.value = selected;
};
