-- title: alter column "user"."name" and 2 more
-- change: alter column "user"."name"
-- change: alter column "user"."phone"
-- change: alter column "user"."role"

ALTER TABLE "public"."user" ALTER COLUMN "name" SET DEFAULT 'anonymous';

ALTER TABLE "public"."user" ALTER COLUMN "phone" SET DEFAULT '';

ALTER TABLE "public"."user" ALTER COLUMN "role" SET DEFAULT 'admin';
