-- title: alter column "measure"."small" and 4 more
-- change: alter column "measure"."small"
-- change: alter column "measure"."amount"
-- change: alter column "measure"."ratio"
-- change: alter column "measure"."code"
-- change: alter column "measure"."count"

ALTER TABLE "public"."measure" ALTER COLUMN "small" TYPE integer USING "small"::integer;

ALTER TABLE "public"."measure" ALTER COLUMN "amount" TYPE numeric(12,4) USING "amount"::numeric(12,4);

ALTER TABLE "public"."measure" ALTER COLUMN "ratio" TYPE double precision USING "ratio"::double precision;

ALTER TABLE "public"."measure" ALTER COLUMN "code" TYPE varchar(3) USING "code"::varchar(3);

ALTER TABLE "public"."measure" ALTER COLUMN "count" TYPE numeric(12,2) USING "count"::numeric(12,2);
