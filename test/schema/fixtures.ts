// A small valid schema to mutate per test, and helpers to load it.

import { type LoadOptions, loadSchema } from "../../generator/schema/index.ts";
import type {
  CustomRoute,
  Diagnostic,
  LoadResult,
  Schema,
  StandardRoute,
} from "../../generator/schema/types.ts";

// biome-ignore lint/suspicious/noExplicitAny: tests mutate raw JSON freely
export type Raw = any;

const col = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  isNullable: false,
  roles: [],
  scopes: [],
  ...extra,
});

/** A fresh copy of the base schema: valid, no warnings. */
export function baseSchema(): Raw {
  return {
    database: [
      {
        name: "company",
        columns: [col("id", "BIGSERIAL", { isPrimary: true }), col("name", "VARCHAR", { length: 100 })],
        indexes: [],
        foreignKeys: [],
        checkConstraints: [],
        roles: [],
        scopes: [],
      },
      {
        name: "user",
        columns: [
          col("id", "BIGSERIAL", { isPrimary: true }),
          col("companyId", "BIGINT"),
          col("email", "VARCHAR", { length: 100 }),
          col("firstName", "VARCHAR", { length: 30 }),
          col("role", "ENUM", { value: "'admin','user'" }),
          col("createdOn", "DATETIME", { default: "now()" }),
        ],
        indexes: [{ name: "user_email_unique", columns: ["email"], isUnique: true, isPrimaryKey: false }],
        foreignKeys: [
          {
            name: "user_companyId_fk",
            column: "companyId",
            refTable: "company",
            refColumn: "id",
            onDelete: "NO ACTION",
            onUpdate: "NO ACTION",
          },
        ],
        checkConstraints: [],
        roles: [],
        scopes: [],
      },
      {
        name: "order",
        columns: [
          col("id", "BIGSERIAL", { isPrimary: true }),
          col("userId", "BIGINT"),
          col("amount", "DECIMAL", { value: "10,2" }),
        ],
        indexes: [],
        foreignKeys: [{ name: "order_userId_fk", column: "userId", refTable: "user", refColumn: "id" }],
        checkConstraints: [],
        roles: [],
        scopes: [],
      },
    ],
    endpoints: [
      {
        name: "V1",
        description: "V1 Endpoints",
        baseUrl: "/api/v1",
        routes: [
          {
            name: "get user",
            description: "one user",
            method: "GET",
            path: "/user/:id",
            type: "ONE",
            table: "user",
            roles: ["admin"],
            scopes: [],
            request: [{ name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] }],
            joins: [],
            where: [{ tableName: "user", columnName: "id", operator: "=", value: "$id" }],
            assignments: [],
            response: [
              { name: "id", selector: "user.id" },
              { name: "email", selector: "user.email" },
            ],
          },
          {
            name: "list orders",
            description: "orders with their user",
            method: "GET",
            path: "/order",
            type: "ARRAY",
            table: "order",
            roles: [],
            scopes: ["read:user"],
            request: [],
            joins: [
              {
                alias: "owner",
                table: "user",
                type: "INNER",
                localColumnName: "userId",
                foreignColumnName: "id",
              },
            ],
            where: [{ tableName: "owner", columnName: "companyId", operator: "=", value: "#companyId" }],
            assignments: [],
            response: [
              { name: "id", selector: "order.id" },
              { name: "ownerEmail", selector: "owner.email" },
            ],
          },
          {
            name: "login",
            description: "log in",
            method: "POST",
            path: "/user/login",
            type: "CUSTOM_ONE",
            roles: [],
            scopes: [],
            request: [
              { name: "email", required: true, validator: [{ type: "TYPE_CHECK", value: "string" }] },
            ],
            responseType: "AuthResponse",
          },
        ],
      },
    ],
    customTypes: ["export interface AuthResponse {\n  token: string;\n}"],
    globalParams: ["userId", "companyId"],
    roles: ["admin", "user"],
    scopes: ["read:user"],
  };
}

/** Loads a mutated copy of the base schema (`strict`: as an api.schema.json). */
export function load(mutate: (s: Raw) => void = () => {}, options: LoadOptions = {}): LoadResult {
  const s = baseSchema();
  mutate(s);
  return loadSchema(s, options);
}

export const errorsOf = (mutate: (s: Raw) => void): Diagnostic[] => load(mutate).errors;
export const warningsOf = (mutate: (s: Raw) => void): Diagnostic[] => load(mutate).warnings;

/** Shortcuts into the base schema. */
export const user = (s: Raw): Raw => s.database[1];
export const order = (s: Raw): Raw => s.database[2];
export const routes = (s: Raw): Raw[] => s.endpoints[0].routes;
export const getUser = (s: Raw): Raw => s.endpoints[0].routes[0];
export const listOrders = (s: Raw): Raw => s.endpoints[0].routes[1];
export const login = (s: Raw): Raw => s.endpoints[0].routes[2];
export const err = (path: string, message: string): Diagnostic => ({ path, message });

/** The loaded schema; fails the test when there is none. */
export function schemaOf(r: LoadResult): Schema {
  if (!r.schema) throw new Error(`no schema: ${JSON.stringify(r.errors)}`);
  return r.schema;
}

/** Route `i` of the first endpoint group of a loaded schema. */
export function standardRoute(r: LoadResult, i: number): StandardRoute {
  return schemaOf(r).endpoints[0]?.routes[i] as StandardRoute;
}

export function customRoute(r: LoadResult, i: number): CustomRoute {
  return schemaOf(r).endpoints[0]?.routes[i] as CustomRoute;
}
