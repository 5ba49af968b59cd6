-- Bulk data for `make bench`, on top of example/seed.sql: enough rows that the queries use
-- their indexes and row policies filter real work. Ids start high to stay clear of the seed.
SET LOCAL row_security = off;

INSERT INTO "public"."project" ("id", "companyId", "ownerId", "name", "status", "budget", "settings", "startDate", "dueDate")
SELECT 10000 + g, 1 + g % 2, CASE WHEN g % 2 = 0 THEN 2 ELSE 5 END, 'Bench project ' || g,
       (ARRAY['planning','active','on_hold','completed','archived'])[1 + g % 5], (g * 37 % 100000) + 0.5,
       jsonb_build_object('color', 'blue', 'n', g), DATE '2026-01-01' + g % 200, DATE '2026-08-01' + g % 200
FROM generate_series(1, 2000) AS g;

INSERT INTO "public"."task" ("id", "companyId", "projectId", "assigneeId", "createdById", "title", "priority", "estimateHours", "done", "dueDate")
SELECT 100000 + g, 1 + (g / 10) % 2, 10000 + g / 10, CASE WHEN (g / 10) % 2 = 0 THEN 3 ELSE NULL END,
       CASE WHEN (g / 10) % 2 = 0 THEN 1 ELSE 4 END, 'Bench task ' || g,
       (ARRAY['low','medium','high','urgent'])[1 + g % 4], (g % 80) + 0.25, g % 3 = 0, DATE '2026-03-01' + g % 300
FROM generate_series(10, 20009) AS g;

INSERT INTO "public"."comment" ("taskId", "authorId", "body")
SELECT 100000 + g, CASE WHEN (g / 10) % 2 = 0 THEN 2 ELSE 5 END, 'Bench comment on task ' || g
FROM generate_series(10, 20009, 3) AS g;

ANALYZE;
