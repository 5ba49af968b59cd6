-- title: comment on table "invoice" and 2 more
-- change: comment on table "invoice"
-- change: comment on column "invoice"."total"
-- change: comment on column "invoice"."memo"

COMMENT ON TABLE "public"."invoice" IS 'Invoices';

COMMENT ON COLUMN "public"."invoice"."total" IS 'In cents';

COMMENT ON COLUMN "public"."invoice"."memo" IS NULL;
