-- The Restura fixture at the scale of `make bench` and the plan check, on top of
-- test/routes/restura.seed.sql (companies 1-2, users 1-3, orders 1-3, items 1-2): 1,000
-- companies, 10,000 users, 50,000 orders, 100,000 items in total. Deterministic, set-based,
-- a few seconds. Users of company c: ids with (id % 1000) + 1 = c past the seed; each user has
-- five orders, each order two items. Run as the tables' owner or a superuser.
BEGIN;
SET LOCAL row_security = off;

INSERT INTO "public"."company" ("id", "createdOn", "modifiedOn", "name")
SELECT g, TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * INTERVAL '1 hour',
       TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * INTERVAL '1 hour', 'Company ' || g
FROM generate_series(3, 1000) AS g;

INSERT INTO "public"."user" ("id", "createdOn", "modifiedOn", "firstName", "lastName", "companyId", "password",
  "email", "role", "permissionLogin", "lastLoginOn", "phone", "accountStatus", "onboardingStatus", "testAge",
  "metadata", "birthDate")
SELECT g, TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * INTERVAL '37 minutes',
       TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * INTERVAL '41 minutes',
       (ARRAY['Ann','Ben','Cleo','Dan','Eve','Finn','Gus','Hana'])[1 + g % 8], 'Last' || g, 1 + g % 1000,
       'hash-' || g, 'user' || g || '@scale.test', (ARRAY['user','admin']::text[])[1 + (g % 10 = 0)::int]::text,
       g % 7 <> 0, CASE WHEN g % 3 = 0 THEN TIMESTAMPTZ '2026-01-01 00:00:00+00' + g * INTERVAL '1 minute' END,
       CASE WHEN g % 2 = 0 THEN '555-' || lpad((g % 10000)::text, 4, '0') END,
       (ARRAY['active','view_only','banned'])[1 + g % 3], (ARRAY['complete','verify_email'])[1 + g % 2],
       18 + g % 60, jsonb_build_object('n', g), DATE '1970-01-01' + g
FROM generate_series(4, 10000) AS g;

INSERT INTO "public"."order" ("id", "createdOn", "modifiedOn", "userId", "amountCents", "amount")
SELECT g, TIMESTAMPTZ '2024-04-01 00:00:00+00' + g * INTERVAL '5 minutes',
       TIMESTAMPTZ '2024-04-01 00:00:00+00' + g * INTERVAL '5 minutes', 1 + g % 10000, g * 7 % 100000,
       CASE WHEN g % 5 = 0 THEN NULL ELSE (g * 7 % 100000) / 100.0 END
FROM generate_series(4, 50000) AS g;

INSERT INTO "public"."item" ("id", "createdOn", "modifiedOn", "orderId")
SELECT g, TIMESTAMPTZ '2024-04-01 00:00:00+00' + g * INTERVAL '3 minutes',
       TIMESTAMPTZ '2024-04-01 00:00:00+00' + g * INTERVAL '3 minutes',
       CASE WHEN g % 50 = 0 THEN NULL ELSE 1 + g % 50000 END
FROM generate_series(3, 100000) AS g;

SELECT setval(pg_get_serial_sequence('"public"."company"', 'id'), 1000);
SELECT setval(pg_get_serial_sequence('"public"."user"', 'id'), 10000);
SELECT setval(pg_get_serial_sequence('"public"."order"', 'id'), 50000);
SELECT setval(pg_get_serial_sequence('"public"."item"', 'id'), 100000);
COMMIT;
ANALYZE "public"."company", "public"."user", "public"."order", "public"."item";
