-- title: add column "office"."regionCountry" and 3 more
-- change: add column "office"."regionCountry"
-- change: change constraint "region"."region_pkey"
-- change: add constraint "region"."region_name_key"
-- change: change foreign key "office"."office_region_fk"

ALTER TABLE "public"."office" DROP CONSTRAINT "office_region_fk";

ALTER TABLE "public"."region" DROP CONSTRAINT "region_pkey";

ALTER TABLE "public"."office" ADD COLUMN "regionCountry" char(2) NOT NULL DEFAULT 'US';

ALTER TABLE "public"."region" ADD CONSTRAINT "region_pkey" PRIMARY KEY ("code", "country");

ALTER TABLE "public"."region" ADD CONSTRAINT "region_name_key" UNIQUE ("name");

ALTER TABLE "public"."office" ADD CONSTRAINT "office_region_fk" FOREIGN KEY ("regionCode", "regionCountry") REFERENCES "public"."region" ("code", "country") ON DELETE NO ACTION ON UPDATE NO ACTION;
