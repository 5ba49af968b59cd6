-- title: alter column "user"."role"
-- change: alter column "user"."role"

ALTER TABLE "public"."user" ALTER COLUMN "role" DROP DEFAULT;
