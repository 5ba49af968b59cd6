-- title: alter column "user"."name" and 1 more
-- change: alter column "user"."name"
-- change: alter column "user"."phone"
-- precondition: database[0].columns[3]: cannot make column "user"."phone" NOT NULL: some rows hold NULL. Fill them in first (UPDATE ... WHERE "phone" IS NULL), or give it a default and fill it in two steps
--   SELECT EXISTS (SELECT 1 FROM "public"."user" WHERE "phone" IS NULL) AS failed

ALTER TABLE "public"."user" ALTER COLUMN "name" DROP NOT NULL;

ALTER TABLE "public"."user" ALTER COLUMN "phone" SET NOT NULL;
