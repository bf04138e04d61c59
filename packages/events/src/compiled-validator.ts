import type * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { JsonObject, JsonValue } from './json-value';
import { ObjectShapeCodec } from './strict-object';
import { TaggedUnionCodec } from './tagged-union';

/**
 * A validator compiled from an io-ts codec: true exactly when `codec.decode` accepts the value
 * (`validate`'s verdict, not `is`'s), with no contexts, no Eithers and no closures per call. It
 * says only whether; the codec itself explains a refusal (its callers decode what it refuses), so every error is
 * the one the codec has always given.
 */
export interface CompiledValidator<A = unknown> {
  (value: unknown): value is A;
  /** The nodes the compiler could not express, checked by calling their codec (see `compileValidator`). */
  readonly fallbacks: readonly string[];
  /** The generated JavaScript, for a reader who wants to see what runs. */
  readonly source: string;
}

/*
 * The codec tree is walked once. The root, each union and tagged union, and each recursion become
 * a generated function; every other composite node (an object, array, tuple, intersection) is
 * written in place in the function that checks its parent, so a check calls few functions. The
 * generated code reproduces each combinator's `validate` as io-ts 2.2 and strict-object.ts /
 * tagged-union.ts write it:
 * - `type`: an object (not null, not an array), every declared key's value checked, an absent key
 *   checked as `undefined`; `partial`: a key whose value is `undefined` is skipped;
 * - `strictObject`: also no own key outside the declared ones, and no declared optional key present
 *   with the value `undefined`; `openObject`: the declared keys only;
 * - `intersection`: every member; `union`: some member; `taggedUnion`: the member its tag names
 *   (an own key of its members), else the fallback;
 * - arrays: every item; `tuple`: its items (extra items are accepted, as `validate` strips them);
 * - literals, keyof, primitives, `recursion` (the same function, called again).
 * A refinement or brand over a primitive calls the codec's own predicate (a function the compiler
 * cannot read); JsonValue and JsonObject call their `is` (their `validate` is their `is`); any other
 * custom `t.Type` is checked by its own `validate` and named in `fallbacks`.
 */

type Node = t.Decoder<unknown, unknown> & { readonly _tag?: string; readonly name: string };

const primitiveTest = (node: Node, v: string): string | undefined => {
  switch (node._tag) {
    case 'StringType':
      return `typeof ${v} === "string"`;
    case 'NumberType':
      return `typeof ${v} === "number"`;
    case 'BooleanType':
      return `typeof ${v} === "boolean"`;
    case 'NullType':
      return `${v} === null`;
    case 'UndefinedType':
    case 'VoidType':
      return `${v} === undefined`;
    case 'UnknownType':
    case 'AnyType':
      return 'true';
    case 'LiteralType': {
      const value = (node as unknown as t.LiteralType<string | number | boolean>).value;
      return `${v} === ${JSON.stringify(value)}`;
    }
    case 'KeyofType': {
      const keys = Object.keys((node as unknown as t.KeyofType<Record<string, unknown>>).keys);
      return keys.length === 0 ? 'false' : `(${keys.map((key) => `${v} === ${JSON.stringify(key)}`).join(' || ')})`;
    }
    default:
      return undefined;
  }
};

class ValidatorCompiler {
  private readonly names = new Map<unknown, string>();
  private readonly functions: string[] = [];
  readonly externals: unknown[] = [];
  readonly fallbacks: string[] = [];
  private locals = 0;

  get source(): string {
    return this.functions.join('\n');
  }

  /** A boolean expression testing the value held in the variable `v`. */
  test(node: Node, v: string): string {
    const primitive = primitiveTest(node, v);
    if (primitive !== undefined) return primitive;
    if (node._tag === 'RefinementType') {
      const refinement = node as unknown as t.RefinementType<t.Mixed, unknown, unknown, unknown>;
      const base = primitiveTest(refinement.type as Node, v);
      if (base !== undefined) return `(${base} && ${this.external(refinement.predicate)}(${v}))`;
    }
    return `${this.functionOf(node)}(${v})`;
  }

  /** The name of the generated function for a composite node (made once; recursion reuses it). */
  functionOf(node: Node): string {
    const known = this.names.get(node);
    if (known !== undefined) return known;
    if (node._tag === 'RecursiveType') {
      const name = this.functionOf((node as unknown as t.RecursiveType<t.Mixed>).type as Node);
      this.names.set(node, name);
      return name;
    }
    const name = `v${this.names.size}`;
    this.names.set(node, name);
    this.functions.push(`function ${name}(x) {\n${this.body(node)}\n}`);
    return name;
  }

  private external(value: unknown): string {
    this.externals.push(value);
    return `ext[${this.externals.length - 1}]`;
  }

  private local(prefix = 'p'): string {
    this.locals += 1;
    return `${prefix}${this.locals}`;
  }

  private body(node: Node): string {
    if (node instanceof TaggedUnionCodec) return this.taggedUnionBody(node);
    if (node === JsonValue || node === JsonObject) return `  return ${this.external((node as t.Mixed).is)}(x);`;
    if (node._tag === 'UnionType') {
      const tests = ((node as unknown as t.UnionType<t.Mixed[]>).types as Node[]).map((member) =>
        this.test(member, 'x'),
      );
      return `  return ${tests.length === 0 ? 'false' : tests.join(' || ')};`;
    }
    if (this.isInlined(node)) return [...this.inline(node, 'x'), 'return true;'].map((line) => `  ${line}`).join('\n');
    return this.fallbackBody(node);
  }

  /** Nodes whose check is a run of statements that return false (all of them must hold): written in place, not called. */
  private isInlined(node: Node): boolean {
    if (node instanceof ObjectShapeCodec) return true;
    if (node instanceof TaggedUnionCodec || node === JsonValue || node === JsonObject) return false;
    switch (node._tag) {
      case 'InterfaceType':
      case 'PartialType':
      case 'ExactType':
      case 'ReadonlyType':
      case 'IntersectionType':
      case 'ArrayType':
      case 'ReadonlyArrayType':
      case 'TupleType':
        return true;
      default:
        return false;
    }
  }

  /**
   * Statements that return false unless the value in `v` passes `node`. A composite node that
   * must hold as a whole (an object, array, tuple, intersection) is written here in its parent's
   * function, so a check runs as few functions as the codec's unions and recursions need: fewer
   * calls in the interpreter, and fewer functions for V8 to tier up one by one. A union, a tagged
   * union, a recursion (a cycle always passes through one) and anything else is called.
   */
  private check(node: Node, v: string): string[] {
    // A node that already has its function (a recursion's) is called, not written twice.
    if (!this.isInlined(node) || this.names.has(node)) return [`if (!(${this.test(node, v)})) return false;`];
    return this.inline(node, v);
  }

  /** `check` of a node `isInlined` accepts, written in place. */
  private inline(node: Node, v: string): string[] {
    if (node instanceof ObjectShapeCodec) return this.objectLines(node.required, node.optional, node.extraKeys, v);
    switch (node._tag) {
      case 'InterfaceType':
        return this.objectLines((node as unknown as t.InterfaceType<t.Props>).props, {}, 'kept', v);
      case 'PartialType':
        return this.objectLines({}, (node as unknown as t.PartialType<t.Props>).props, 'kept', v);
      case 'ExactType':
      case 'ReadonlyType':
        return this.check((node as unknown as { type: Node }).type, v);
      case 'IntersectionType':
        return ((node as unknown as t.IntersectionType<t.Mixed[]>).types as Node[]).flatMap((member) =>
          this.check(member, v),
        );
      case 'ArrayType':
      case 'ReadonlyArrayType': {
        const item = (node as unknown as t.ArrayType<t.Mixed>).type as Node;
        const index = this.local('i');
        const element = this.local('e');
        return [
          `if (!Array.isArray(${v})) return false;`,
          `for (let ${index} = 0; ${index} < ${v}.length; ${index}++) {`,
          `  const ${element} = ${v}[${index}];`,
          ...this.check(item, element).map((line) => `  ${line}`),
          '}',
        ];
      }
      default: {
        const items = (node as unknown as t.TupleType<t.Mixed[]>).types as Node[];
        return [
          `if (!Array.isArray(${v})) return false;`,
          ...items.flatMap((item, index) => {
            const p = this.local();
            return [`const ${p} = ${v}[${index}];`, ...this.check(item, p)];
          }),
        ];
      }
    }
  }

  private objectLines(required: t.Props, optional: t.Props, extraKeys: 'refused' | 'kept', x: string): string[] {
    const lines = [`if (typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})) return false;`];
    for (const [key, codec] of Object.entries(required)) {
      const v = this.local();
      lines.push(`const ${v} = ${x}[${JSON.stringify(key)}];`, ...this.check(codec as Node, v));
    }
    for (const [key, codec] of Object.entries(optional)) {
      const v = this.local();
      lines.push(
        `const ${v} = ${x}[${JSON.stringify(key)}];`,
        `if (${v} !== undefined) {`,
        ...this.check(codec as Node, v).map((line) => `  ${line}`),
        '}',
      );
      // strictObject refuses a declared optional key that is there with the value undefined.
      if (extraKeys === 'refused')
        lines.push(`if (${v} === undefined && (${JSON.stringify(key)} in ${x})) return false;`);
    }
    if (extraKeys === 'refused') {
      const declared = [...Object.keys(required), ...Object.keys(optional)];
      const k = this.local('k');
      // for-in needs no array of keys; an inherited enumerable key is not one of the object's own.
      lines.push(
        `for (const ${k} in ${x}) {`,
        `  switch (${k}) {`,
        ...declared.map((key) => `    case ${JSON.stringify(key)}:`),
        ...(declared.length === 0 ? [] : ['      break;']),
        '    default:',
        `      if (Object.hasOwn(${x}, ${k})) return false;`,
        '  }',
        '}',
      );
    }
    return lines;
  }

  private taggedUnionBody(node: TaggedUnionCodec<unknown>): string {
    const tag = this.local('t');
    const cases = Object.entries(node.members).flatMap(([name, member]) => [
      `      case ${JSON.stringify(name)}: {`,
      ...this.check(member as Node, 'x').map((line) => `        ${line}`),
      '        return true;',
      '      }',
    ]);
    return [
      `  const ${tag} = typeof x === "object" && x !== null ? x[${JSON.stringify(node.tag)}] : undefined;`,
      `  if (typeof ${tag} === "string") {`,
      `    switch (${tag}) {`,
      ...cases,
      '    }',
      '  }',
      `  return ${this.test(node.fallback as Node, 'x')};`,
    ].join('\n');
  }

  private fallbackBody(node: Node): string {
    this.fallbacks.push(node.name);
    const validates = (value: unknown): boolean =>
      isRight(node.validate(value, [{ key: '', type: node, actual: value }]));
    return `  return ${this.external(validates)}(x);`;
  }
}

/** Compile a validator from a codec; done once per codec (keep the result), never per value. */
export const compileValidator = <A>(codec: t.Decoder<unknown, A>): CompiledValidator<A> => {
  const compiler = new ValidatorCompiler();
  const root = compiler.functionOf(codec as Node);
  const source = `"use strict";\n${compiler.source}\nreturn ${root};`;
  // The source is built only from the codec tree: key names and literals go in through JSON.stringify.
  const validator = new Function('ext', source)(compiler.externals) as (value: unknown) => value is A;
  return Object.assign(validator, { fallbacks: compiler.fallbacks, source });
};
