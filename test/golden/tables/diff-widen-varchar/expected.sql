-- title: alter column "user"."name" and 1 more
-- change: alter column "user"."name"
-- change: alter column "user"."phone"

ALTER TABLE "public"."user" ALTER COLUMN "name" TYPE varchar(100) USING "name"::varchar(100);

ALTER TABLE "public"."user" ALTER COLUMN "phone" TYPE text USING "phone"::text;
