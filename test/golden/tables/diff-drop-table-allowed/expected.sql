-- title: drop table "audit"
-- change: drop table "audit"

ALTER TABLE "public"."audit" DROP CONSTRAINT "audit_user_fk";

DROP TABLE "public"."audit";
