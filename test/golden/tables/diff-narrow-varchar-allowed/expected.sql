-- title: alter column "user"."name"
-- change: alter column "user"."name"

ALTER TABLE "public"."user" ALTER COLUMN "name" TYPE varchar(10) USING "name"::varchar(10);
