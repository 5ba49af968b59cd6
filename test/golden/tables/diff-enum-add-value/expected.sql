-- title: change constraint "user"."user_role_check"
-- change: change constraint "user"."user_role_check"

ALTER TABLE "public"."user" DROP CONSTRAINT "user_role_check";

ALTER TABLE "public"."user" ADD CONSTRAINT "user_role_check" CHECK ("role" IN ('admin', 'user', 'guest'));
