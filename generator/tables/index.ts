// Tables: the Postgres DDL for a fresh database, and migrations between schema versions.

export {
  columnTypeSql,
  compareColumnTypes,
  comparePgTypes,
  enumValues,
  isIdentity,
  isWidening,
  type PgType,
  type PgTypeName,
  pgType,
  type TypeChange,
} from "./columnType.ts";
export { createDatabaseSql, createDatabaseStatements, toSqlScript } from "./ddl.ts";
export { type MigrationPlan, type PlanOptions, type Precondition, planMigration } from "./diff.ts";
export { TABLE_SCHEMA } from "./names.ts";
