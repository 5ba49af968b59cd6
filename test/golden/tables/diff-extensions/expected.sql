-- title: create extension "uuid-ossp" and 1 more
-- change: create extension "uuid-ossp"
-- change: add column "user"."guid"

CREATE EXTENSION IF NOT EXISTS "uuid-ossp" WITH SCHEMA "public" CASCADE;

ALTER TABLE "public"."user" ADD COLUMN "guid" uuid NOT NULL DEFAULT uuid_generate_v4();
