-- title: rename table "user" to "member"
-- change: rename table "user" to "member"

ALTER TABLE "public"."user" RENAME TO "member";

ALTER TABLE "public"."member" RENAME CONSTRAINT "user_pkey" TO "member_pkey";

ALTER TABLE "public"."member" RENAME CONSTRAINT "user_email_key" TO "member_email_key";

ALTER TABLE "public"."member" RENAME CONSTRAINT "user_role_check" TO "member_role_check";
