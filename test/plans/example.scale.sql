-- The example app at a realistic size for `make bench` and the plan check, on top of
-- example/seed.sql (companies 1-2 with ids below 1000): 50 companies, 1,000 users, 2,000 projects,
-- 20,000 tasks, 10,000 comments, 250 tags, 20,000 task tags, 1,000 invoices. Every company gets
-- the same shape: companies 1 and 2 (the seed's, whose users tokens name) grow too.
-- Deterministic, set-based, a few seconds. Run as the tables' owner or a superuser.
BEGIN;
SET LOCAL row_security = off;

-- Companies 3..50.
INSERT INTO "public"."company" ("id", "createdOn", "name", "slug", "plan", "isListed", "billingEmail", "settings")
SELECT c, TIMESTAMPTZ '2024-05-01 00:00:00+00' + c * INTERVAL '1 day', 'Company ' || c, 'company-' || c,
       (ARRAY['free','team','enterprise'])[1 + c % 3], c % 2 = 0, 'billing@c' || c || '.test',
       jsonb_build_object('timezone', 'UTC', 'n', c)
FROM generate_series(3, 50) AS c;

-- Users 1000..1999: 20 per company (companyId = 1 + id % 50).
INSERT INTO "public"."user" ("id", "createdOn", "companyId", "email", "firstName", "lastName", "role", "passwordHash",
  "grantedScopes", "isActive", "avatarUrl", "preferences", "lastLoginOn")
SELECT u, TIMESTAMPTZ '2024-06-01 00:00:00+00' + u * INTERVAL '1 hour', 1 + u % 50, 'user' || u || '@scale.test',
       (ARRAY['Ada','Bo','Cy','Di','Ed','Flo','Gil','Hal'])[1 + u % 8], 'Surname' || (u * 7919 % 1000),
       (ARRAY['admin','manager','member','member'])[1 + u % 4], 'x', '["tasks:write"]', u % 9 <> 0,
       NULL, '{}', TIMESTAMPTZ '2026-01-01 00:00:00+00' + u * INTERVAL '1 minute'
FROM generate_series(1000, 1999) AS u;

-- Projects 1000..2999: 40 per company (companyId = 1 + id % 50), owned by a user of the company.
INSERT INTO "public"."project" ("id", "createdOn", "companyId", "ownerId", "name", "description", "status", "budget",
  "settings", "startDate", "dueDate")
SELECT p, TIMESTAMPTZ '2025-01-01 00:00:00+00' + p * INTERVAL '3 hours', 1 + p % 50, 1000 + p % 50 + 50 * (p % 20),
       'Project ' || p, CASE WHEN p % 3 = 0 THEN 'About project ' || p END,
       (ARRAY['planning','active','on_hold','completed','archived'])[1 + (p / 50) % 5], (p * 37 % 100000) + 0.5,
       jsonb_build_object('color', '#3366ff', 'n', p), DATE '2026-01-01' + p % 200, DATE '2026-08-01' + p % 400
FROM generate_series(1000, 2999) AS p;

-- Tasks 1000..20999: 10 per project, in the project's company; a third unassigned, a third done.
INSERT INTO "public"."task" ("id", "createdOn", "companyId", "projectId", "assigneeId", "createdById", "title",
  "description", "priority", "estimateHours", "done", "dueDate")
SELECT t, TIMESTAMPTZ '2026-01-01 00:00:00+00' + t * INTERVAL '7 minutes', 1 + (1000 + t / 10 % 2000) % 50,
       1000 + t / 10 % 2000,
       CASE WHEN t % 3 = 0 THEN NULL ELSE 1000 + (1000 + t / 10 % 2000) % 50 + 50 * (t % 20) END,
       1000 + (1000 + t / 10 % 2000) % 50 + 50 * ((t + 7) % 20), 'Task ' || t || ' of project ' || (1000 + t / 10 % 2000),
       CASE WHEN t % 4 = 0 THEN 'Details of task ' || t END, (ARRAY['low','medium','high','urgent'])[1 + t % 4],
       CASE WHEN t % 11 = 0 THEN NULL ELSE (t % 97) / 2.0 END, t % 3 = 1,
       CASE WHEN t % 13 = 0 THEN NULL WHEN t % 2 = 0 THEN DATE '2025-01-01' + t % 500 ELSE DATE '2030-01-01' + t % 500 END
FROM generate_series(1000, 20999) AS t;

-- Comments: one on every other task, by a user of the task's company.
INSERT INTO "public"."comment" ("id", "createdOn", "taskId", "authorId", "body")
SELECT 1000 + t, TIMESTAMPTZ '2026-02-01 00:00:00+00' + t * INTERVAL '5 minutes', t,
       1000 + (1000 + t / 10 % 2000) % 50 + 50 * (t % 20), 'Comment on task ' || t
FROM generate_series(1000, 20999, 2) AS t;

-- Tags 1000..1249: five per company; every task gets one tag of its company.
INSERT INTO "public"."tag" ("id", "companyId", "name", "color")
SELECT g, 1 + g % 50, 'tag-' || g, '#' || lpad(to_hex(g * 4099 % 16777216), 6, '0')
FROM generate_series(1000, 1249) AS g;
INSERT INTO "public"."task_tag" ("taskId", "tagId", "createdOn")
SELECT t, 1000 + 50 * (t % 5) + (1000 + t / 10 % 2000) % 50, TIMESTAMPTZ '2026-02-01 00:00:00+00'
FROM generate_series(1000, 20999) AS t;

-- Invoices 1000..1999: 20 per company.
INSERT INTO "public"."invoice" ("id", "createdOn", "companyId", "number", "amount", "currency", "status", "issuedOn",
  "paidOn", "lineItems")
SELECT i, TIMESTAMPTZ '2025-01-01 00:00:00+00' + i * INTERVAL '1 day', 1 + i % 50, 'INV-' || i, (i * 13 % 5000) + 0.25,
       'USD', (ARRAY['draft','issued','paid','void'])[1 + i % 4], DATE '2025-01-01' + i % 365, NULL,
       jsonb_build_array(jsonb_build_object('description', 'Seats', 'quantity', i % 10))
FROM generate_series(1000, 1999) AS i;

SELECT setval(pg_get_serial_sequence('"public"."' || t || '"', 'id'), 100000)
FROM unnest(ARRAY['company','user','project','task','comment','tag','invoice']) AS t;
COMMIT;
ANALYZE;
