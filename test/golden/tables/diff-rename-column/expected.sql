-- title: rename column "post"."authorId" to "writerId" and 2 more
-- change: rename column "post"."authorId" to "writerId"
-- change: rename column "user"."email" to "emailAddress"
-- change: rename column "user"."role" to "kind"

ALTER TABLE "public"."post" RENAME COLUMN "authorId" TO "writerId";

ALTER TABLE "public"."user" RENAME COLUMN "email" TO "emailAddress";

ALTER TABLE "public"."user" RENAME COLUMN "role" TO "kind";

ALTER TABLE "public"."user" RENAME CONSTRAINT "user_email_key" TO "user_emailAddress_key";

ALTER TABLE "public"."user" RENAME CONSTRAINT "user_role_check" TO "user_kind_check";
