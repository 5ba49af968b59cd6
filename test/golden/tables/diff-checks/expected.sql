-- title: drop constraint "product"."product_old_rule" and 2 more
-- change: drop constraint "product"."product_old_rule"
-- change: change constraint "product"."product_price_positive"
-- change: add constraint "product"."product_stock_positive"

ALTER TABLE "public"."product" DROP CONSTRAINT "product_old_rule";

ALTER TABLE "public"."product" DROP CONSTRAINT "product_price_positive";

ALTER TABLE "public"."product" ADD CONSTRAINT "product_price_positive" CHECK ("price" >= 0);

ALTER TABLE "public"."product" ADD CONSTRAINT "product_stock_positive" CHECK ("stock" >= 0);
