-- title: drop column "user"."phone"
-- change: drop column "user"."phone"

ALTER TABLE "public"."user" DROP COLUMN "phone";
