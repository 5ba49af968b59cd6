-- title: drop constraint "user"."user_role_check"
-- change: drop constraint "user"."user_role_check"

ALTER TABLE "public"."user" DROP CONSTRAINT "user_role_check";
