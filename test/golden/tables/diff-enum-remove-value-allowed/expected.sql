-- title: change constraint "user"."user_role_check"
-- change: change constraint "user"."user_role_check"
-- precondition: database[0].columns[4]: cannot restrict ENUM column "user"."role" to 'user': some rows hold other values. Update those rows first
--   SELECT EXISTS (SELECT 1 FROM "public"."user" WHERE "role" IS NOT NULL AND "role"::text NOT IN ('user')) AS failed

ALTER TABLE "public"."user" DROP CONSTRAINT "user_role_check";

ALTER TABLE "public"."user" ADD CONSTRAINT "user_role_check" CHECK ("role" IN ('user'));
