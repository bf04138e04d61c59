import * as t from 'io-ts';

/** Characters as JSON Schema counts them (code points), so a schema and its codec agree on every string. */
const lengthOf = (text: string): number => [...text].length;

/**
 * A string of `minLength` to `maxLength` characters: a name or a text a model writes, bounded so one
 * call cannot store an unbounded value (docs/tools.md, "Limits"). The JSON Schema converter reads
 * the bounds from the codec itself.
 */
export class BoundedTextType extends t.Type<string, string, unknown> {
  readonly _tag = 'BoundedTextType' as const;

  constructor(
    name: string,
    readonly minLength: number,
    readonly maxLength: number,
  ) {
    super(
      name,
      (value): value is string =>
        typeof value === 'string' && lengthOf(value) >= minLength && lengthOf(value) <= maxLength,
      (value, context) => {
        if (typeof value !== 'string') return t.failure(value, context, 'expected a string');
        const length = lengthOf(value);
        if (length < minLength)
          return t.failure(
            value,
            context,
            minLength === 1 ? 'must not be empty' : `must have at least ${minLength} characters`,
          );
        if (length > maxLength) return t.failure(value, context, `has ${length} characters; the limit is ${maxLength}`);
        return t.success(value);
      },
      t.identity,
    );
  }
}

export const boundedText = (name: string, minLength: number, maxLength: number): BoundedTextType =>
  new BoundedTextType(name, minLength, maxLength);

/** The limits of what the Team tools store from a model's arguments (docs/tools.md, "Limits"). */
export const toolTextLimits = {
  memberName: 64,
  memberDescription: 4_000,
  taskSubject: 200,
  taskDescription: 16_000,
  writeScope: 1_000,
} as const;

export const MemberNameText = boundedText('MemberName', 1, toolTextLimits.memberName);
export const MemberDescriptionText = boundedText('MemberDescription', 0, toolTextLimits.memberDescription);
export const TaskSubjectText = boundedText('TaskSubject', 1, toolTextLimits.taskSubject);
export const TaskDescriptionText = boundedText('TaskDescription', 0, toolTextLimits.taskDescription);
export const WriteScopeText = boundedText('WriteScope', 0, toolTextLimits.writeScope);
