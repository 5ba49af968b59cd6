// The one place that builds SQL text. Everything else composes fragments through `sql`...``:
// identifiers go through ident(), generator-owned constants through literal(), schema-author
// SQL (defaults, checks, custom where/selectors) through trusted(), and runtime values through
// param() so they reach Postgres as bind parameters. Nothing else concatenates SQL.

export class Sql {
  /** @internal */
  constructor(readonly parts: readonly (string | Param)[]) {}

  /** Renders the SQL text; params become $1, $2, ... in order of first appearance. */
  toQuery(): { text: string; values: unknown[] } {
    const values: unknown[] = [];
    const seen = new Map<Param, number>();
    let text = "";
    for (const part of this.parts) {
      if (typeof part === "string") {
        text += part;
        continue;
      }
      let n = seen.get(part);
      if (n === undefined) {
        values.push(part.value);
        n = values.length;
        seen.set(part, n);
      }
      text += `$${n}`;
    }
    return { text, values };
  }

  /** SQL text for DDL, which has no bind parameters. */
  toString(): string {
    const { text, values } = this.toQuery();
    if (values.length > 0) throw new Error("SQL with bind parameters cannot be rendered as plain text");
    return text;
  }
}

class Param {
  constructor(readonly value: unknown) {}
}

export type SqlValue = Sql | Param;

/** Tagged template: interpolations must be fragments (ident(), literal(), param(), sql``...). */
export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): Sql {
  const parts: (string | Param)[] = [];
  strings.forEach((s, i) => {
    if (s) parts.push(s);
    if (i < values.length) {
      const v = values[i];
      if (v instanceof Sql) parts.push(...v.parts);
      else if (v instanceof Param) parts.push(v);
      else throw new TypeError("sql``: interpolate ident(), literal(), param() or sql`` fragments only");
    }
  });
  return new Sql(parts);
}

/** A quoted identifier, used exactly as written ("firstName" stays camelCase). */
export function ident(...names: string[]): Sql {
  return new Sql([names.map((n) => `"${n.replaceAll('"', '""')}"`).join(".")]);
}

/** A constant owned by the generator (never client input), rendered as a SQL literal. */
export function literal(value: string | number | boolean | null): Sql {
  if (value === null) return new Sql(["NULL"]);
  if (typeof value === "boolean") return new Sql([value ? "true" : "false"]);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`literal(): ${value} is not a finite number`);
    return new Sql([String(value)]);
  }
  // E'' is not needed: standard_conforming_strings is on in every supported Postgres.
  return new Sql([`'${value.replaceAll("'", "''")}'`]);
}

/** SQL text written by the schema author (defaults, checks, custom clauses): trusted input. */
export function trusted(text: string): Sql {
  return new Sql([text]);
}

/** A runtime value: always a bind parameter, never SQL text. */
export function param(value: unknown): Param {
  return new Param(value);
}

export function join(fragments: readonly SqlValue[], separator = ", "): Sql {
  const parts: (string | Param)[] = [];
  fragments.forEach((f, i) => {
    if (i > 0) parts.push(separator);
    if (f instanceof Sql) parts.push(...f.parts);
    else parts.push(f);
  });
  return new Sql(parts);
}

export const empty = new Sql([]);
