CREATE EXTENSION IF NOT EXISTS "pgcrypto" WITH SCHEMA "public" CASCADE;

CREATE EXTENSION IF NOT EXISTS "uuid-ossp" WITH SCHEMA "public" CASCADE;

CREATE TABLE "public"."session" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "token" text NOT NULL DEFAULT encode(gen_random_bytes(32), 'hex'),
  CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);
