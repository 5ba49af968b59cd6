// customTypes -> JSON Schema (generator/schema/typeSchema.ts): what request types may use, and
// a clear error for what they may not.

import t from "tap";
import { TypeSchemaError, typeToJsonSchema } from "../../generator/schema/typeSchema.ts";

const SOURCES = [
  `export interface Base {\n  /** doc, with a comma */\n  id: number;\n}`,
  `export interface Req extends Base {
    name?: string;
    readonly tags: string[];
    kind:
      | "a"
      | 'b';
    ids: Array<number>;
    maybe: number | null;
    nested: { on: boolean, at?: Nested };
    "quoted-key": true;
  }`,
  "export type Nested = { n: 1 | 2 }",
  "export interface Bad extends Restura.PageQuery { x: string }",
  "export interface Rec { map: Record<string, number> }",
];

t.test("supported forms", async (t) => {
  t.same(typeToJsonSchema(SOURCES, "Req"), {
    type: "object",
    properties: {
      name: { type: "string" },
      tags: { type: "array", items: { type: "string" } },
      kind: { enum: ["a", "b"] },
      ids: { type: "array", items: { type: "number" } },
      maybe: { type: ["number", "null"] },
      nested: {
        type: "object",
        properties: {
          on: { type: "boolean" },
          at: {
            type: "object",
            properties: { n: { enum: [1, 2] } },
            required: ["n"],
            additionalProperties: false,
          },
        },
        required: ["on"],
        additionalProperties: false,
      },
      "quoted-key": { const: true },
      id: { type: "number" },
    },
    required: ["tags", "kind", "ids", "maybe", "nested", "quoted-key", "id"],
    additionalProperties: false,
  });
});

t.test("unsupported forms are errors naming the type", async (t) => {
  t.throws(() => typeToJsonSchema(SOURCES, "Bad"), {
    name: "TypeSchemaError",
    message: 'type "Bad" extends "Restura.PageQuery", which is not declared in customTypes (not supported)',
  });
  t.throws(
    () => typeToJsonSchema(SOURCES, "Rec"),
    new TypeSchemaError('type "Rec.map": "Record<string, number>" is not supported'),
  );
  t.throws(() => typeToJsonSchema(SOURCES, "Nope"), {
    message: 'type "Nope" is not declared in customTypes',
  });
});
