// Custom types (the schema's `customTypes`, TypeScript source strings) as JSON Schema, so a
// route's `requestType` can be validated with a compiled validator. Not a TypeScript compiler: a
// small parser for the declarations request types use. Supported (docs/handlers.md):
//
// - `interface Name { ... }` (optionally `extends` other interfaces declared here) and
//   `type Name = <type>`;
// - members `name: T`, `name?: T`, `readonly name: T`, quoted names;
// - types: `string`, `number`, `boolean`, `null`, `unknown`/`any`, string/number/boolean
//   literals, unions of these (`"a" | "b"`, `number | null`), arrays (`T[]`, `Array<T>`),
//   parenthesised types, inline object types `{ a: number }`, and other names declared here.
//
// Anything else (generics, index signatures, intersections, `Record<...>`, names declared
// elsewhere such as `Restura.PageQuery`) is an error naming the type, raised only when a route
// uses that type as its `requestType`. Objects are closed (`additionalProperties: false`): a
// client sending a field the type does not declare gets a VALIDATION_ERROR for it.

export type JsonSchema = Record<string, unknown>;

export class TypeSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TypeSchemaError";
  }
}

interface Declaration {
  kind: "interface" | "type";
  name: string;
  extends: string[];
  body: string;
}

const HEAD = /(?:^|[\s;}])(?:export\s+)?(?:declare\s+)?(interface|type)\s+([A-Za-z_$][\w$]*)\s*(<)?/g;

/** Parses the declarations of the customTypes sources (comments stripped). */
export function parseDeclarations(sources: readonly string[]): Map<string, Declaration> {
  const out = new Map<string, Declaration>();
  for (const source of sources) {
    const code = stripComments(source);
    for (const m of code.matchAll(HEAD)) {
      const kind = m[1] as "interface" | "type";
      const name = m[2] as string;
      let at = (m.index ?? 0) + m[0].length;
      if (m[3] === "<") {
        out.set(name, { kind, name, extends: [], body: "\u0000generic" });
        continue;
      }
      if (kind === "interface") {
        const open = code.indexOf("{", at);
        if (open < 0) continue;
        const heritage = code.slice(at, open).trim();
        const ext = heritage.startsWith("extends")
          ? splitTop(heritage.slice("extends".length), ",").map((s) => s.trim())
          : [];
        const close = matching(code, open);
        out.set(name, { kind, name, extends: ext, body: code.slice(open, close + 1) });
      } else {
        const eq = code.indexOf("=", at);
        if (eq < 0) continue;
        at = eq + 1;
        const end = endOfTypeAlias(code, at);
        out.set(name, { kind, name, extends: [], body: code.slice(at, end).trim() });
      }
    }
  }
  return out;
}

/** The JSON Schema of a declared type. Throws a TypeSchemaError naming what is unsupported. */
export function typeToJsonSchema(sources: readonly string[], name: string): JsonSchema {
  const decls = parseDeclarations(sources);
  const converter = new Converter(decls);
  return converter.named(name, []);
}

class Converter {
  constructor(private readonly decls: Map<string, Declaration>) {}

  named(name: string, stack: string[]): JsonSchema {
    const decl = this.decls.get(name);
    if (!decl) throw new TypeSchemaError(`type "${name}" is not declared in customTypes`);
    if (stack.includes(name)) {
      throw new TypeSchemaError(`type "${name}" refers to itself (${[...stack, name].join(" -> ")})`);
    }
    if (decl.body === "\u0000generic")
      throw new TypeSchemaError(`type "${name}": generic types are not supported`);
    const next = [...stack, name];
    if (decl.kind === "type") return this.type(decl.body, next, name);
    const base = this.object(decl.body, next, name);
    for (const parent of decl.extends) {
      if (!this.decls.has(parent)) {
        throw new TypeSchemaError(
          `type "${name}" extends "${parent}", which is not declared in customTypes (not supported)`,
        );
      }
      const inherited = this.named(parent, next);
      const props = base.properties as Record<string, JsonSchema>;
      const required = base.required as string[];
      for (const [key, value] of Object.entries(inherited.properties as Record<string, JsonSchema>)) {
        if (!Object.hasOwn(props, key)) props[key] = value;
      }
      for (const key of inherited.required as string[]) if (!required.includes(key)) required.push(key);
    }
    return base;
  }

  object(body: string, stack: string[], where: string): JsonSchema {
    const inner = body.trim().slice(1, -1);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const raw of splitMembers(inner)) {
      const member = raw.trim();
      if (member === "") continue;
      const m = /^(?:readonly\s+)?(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$]*))\s*(\?)?\s*:([\s\S]+)$/.exec(
        member,
      );
      if (!m) throw new TypeSchemaError(`type "${where}": member "${member}" is not supported`);
      const key = (m[1] ?? m[2] ?? m[3]) as string;
      properties[key] = this.type(m[5] as string, stack, `${where}.${key}`);
      if (m[4] !== "?") required.push(key);
    }
    return { type: "object", properties, required, additionalProperties: false };
  }

  type(text: string, stack: string[], where: string): JsonSchema {
    const t = text.trim();
    const alternatives = splitTop(t, "|")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    if (alternatives.length > 1) return union(alternatives.map((a) => this.type(a, stack, where)));
    if (t.startsWith("(") && matching(t, 0) === t.length - 1) return this.type(t.slice(1, -1), stack, where);
    if (t.endsWith("[]")) return { type: "array", items: this.type(t.slice(0, -2), stack, where) };
    const arrayOf = /^(?:ReadonlyArray|Array)<([\s\S]+)>$/.exec(t);
    if (arrayOf) return { type: "array", items: this.type(arrayOf[1] as string, stack, where) };
    if (t.startsWith("{")) return this.object(t, stack, where);
    if (t === "string" || t === "number" || t === "boolean" || t === "null") return { type: t };
    if (t === "unknown" || t === "any") return {};
    if (t === "true" || t === "false") return { const: t === "true" };
    if (/^"(?:[^"\\]|\\.)*"$/.test(t) || /^'(?:[^'\\]|\\.)*'$/.test(t)) {
      return { const: t.startsWith('"') ? JSON.parse(t) : t.slice(1, -1).replace(/\\(.)/g, "$1") };
    }
    if (/^-?\d+(\.\d+)?$/.test(t)) return { const: Number(t) };
    if (/^[A-Za-z_$][\w$]*$/.test(t) && this.decls.has(t)) return this.named(t, stack);
    throw new TypeSchemaError(`type "${where}": "${t}" is not supported`);
  }
}

/** Literal alternatives become one `enum`; plain types one `type` list; the rest `anyOf`. */
function union(parts: JsonSchema[]): JsonSchema {
  if (parts.every((p) => Object.hasOwn(p, "const") || (p.type === "null" && Object.keys(p).length === 1))) {
    return { enum: parts.map((p) => (Object.hasOwn(p, "const") ? p.const : null)) };
  }
  if (parts.every((p) => typeof p.type === "string" && Object.keys(p).length === 1)) {
    return { type: parts.map((p) => p.type) };
  }
  return { anyOf: parts };
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
}

const OPEN: Record<string, string> = { "{": "}", "(": ")", "[": "]", "<": ">" };

/**
 * Walks `text` from `from`, skipping quoted strings, and calls `visit` for every other character
 * with the bracket depth after it; stops at the first index where `visit` returns true (-1: none).
 */
function walkOutsideQuotes(
  text: string,
  from: number,
  visit: (c: string, i: number, depth: number) => boolean,
): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      quote = c;
      continue;
    }
    if (c in OPEN) depth++;
    else if (c === "}" || c === ")" || c === "]" || c === ">") depth--;
    if (visit(c, i, depth)) return i;
  }
  return -1;
}

const isBracket = (c: string): boolean => c in OPEN || c === "}" || c === ")" || c === "]" || c === ">";

/** The index of the bracket closing the one at `open`. */
function matching(code: string, open: number): number {
  const close = walkOutsideQuotes(code, open, (c, _i, depth) => depth === 0 && isBracket(c));
  if (close < 0) {
    throw new TypeSchemaError(`unbalanced brackets in customTypes near "${code.slice(open, open + 40)}"`);
  }
  return close;
}

/** Splits `text` where `splitsAt` says so, looking only outside brackets and quotes. */
function splitOutside(text: string, splitsAt: (c: string, i: number, start: number) => boolean): string[] {
  const out: string[] = [];
  let start = 0;
  walkOutsideQuotes(text, 0, (c, i, depth) => {
    if (depth === 0 && !isBracket(c) && splitsAt(c, i, start)) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  out.push(text.slice(start));
  return out;
}

/** Splits at `sep` outside brackets and quotes. */
function splitTop(text: string, sep: string): string[] {
  return splitOutside(text, (c) => c === sep);
}

/**
 * Object members end at `;` or `,` outside brackets and quotes, or at a line break unless the
 * type continues on the next line (a member ending in `:` or `|`, or a next line starting `|`).
 */
function splitMembers(body: string): string[] {
  return splitOutside(body, (c, i, start) => {
    if (c === ";" || c === ",") return true;
    if (c !== "\n") return false;
    const sofar = body.slice(start, i).trim();
    const rest = body.slice(i + 1).trimStart();
    return sofar !== "" && !sofar.endsWith(":") && !sofar.endsWith("|") && !rest.startsWith("|");
  });
}

/** Where a `type X = ...` alias ends: a `;` or a new declaration at bracket depth 0. */
function endOfTypeAlias(code: string, from: number): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i] as string;
    if (c in OPEN) depth++;
    else if (c === "}" || c === ")" || c === "]" || c === ">") depth--;
    else if (depth === 0 && c === ";") return i;
    if (depth === 0 && /^\n\s*(?:export\s+)?(?:interface|type|enum|declare)\s/.test(code.slice(i, i + 30)))
      return i;
  }
  return code.length;
}
