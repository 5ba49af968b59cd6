-- title: drop index "user_gone_index" and 2 more
-- change: drop index "user_gone_index"
-- change: change index "user_phone_index"
-- change: create index "user_lower_email_index"

DROP INDEX "public"."user_gone_index";

DROP INDEX "public"."user_phone_index";

CREATE UNIQUE INDEX "user_lower_email_index" ON "public"."user" ((lower("email")));

CREATE UNIQUE INDEX "user_phone_index" ON "public"."user" ("phone") WHERE "phone" IS NOT NULL;
