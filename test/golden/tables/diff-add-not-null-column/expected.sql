-- title: add column "user"."country"
-- change: add column "user"."country"
-- precondition: database[0].columns[5]: cannot add NOT NULL column "user"."country" without a default: the table has rows. Give it a default, make it nullable, or fill it in two steps
--   SELECT EXISTS (SELECT 1 FROM "public"."user") AS failed

ALTER TABLE "public"."user" ADD COLUMN "country" varchar(2) NOT NULL;
