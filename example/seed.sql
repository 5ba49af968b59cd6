-- Seed data for the example project-management app (example/api.schema.json).
--
-- Idempotent: every row has an explicit id and is inserted with ON CONFLICT DO NOTHING, so running
-- this file twice changes nothing. The id sequences are moved past the seeded ids at the end.
--
-- Run it after `make migrate`, as the migration owner (or a superuser), never as the gateway's
-- login role: the seed writes rows of two companies, which row-level security would refuse.
--
-- Every seeded user's password is: password123
-- (passwordHash is a real bcrypt hash of it, cost 10, "$2b$" prefix.)
--
-- Two companies, so tests can prove tenant isolation:
--   company 1  Acme Robotics     listed in the public directory
--   company 2  Globex Logistics  not listed
-- Task due dates are either in the past (before 2026-07) or far in the future (2030), so routes
-- that compare with CURRENT_DATE (GET /task/overdue) give the same answer for years.

BEGIN;

-- Fail loudly instead of silently writing nothing if this runs as a role subject to row security.
SET LOCAL row_security = off;

INSERT INTO "public"."company" ("id", "createdOn", "name", "slug", "plan", "isListed", "billingEmail", "settings")
VALUES
  (1, '2024-01-08T09:00:00Z', 'Acme Robotics', 'acme-robotics', 'team', true, 'billing@acme.test',
   '{"timezone": "America/Chicago", "workWeek": [1, 2, 3, 4, 5], "features": {"timeTracking": true, "guestAccess": false}}'),
  (2, '2024-03-18T14:30:00Z', 'Globex Logistics', 'globex', 'enterprise', false, 'accounts-payable@globex.test',
   '{"timezone": "Europe/Berlin", "workWeek": [1, 2, 3, 4, 5, 6], "features": {"timeTracking": true, "guestAccess": true}, "sso": {"provider": "okta", "domain": "globex.test"}}')
ON CONFLICT DO NOTHING;

-- grantedScopes: what the login handler puts in each user's token. Acme's manager has no
-- billing:read (403 on GET /invoice); Globex's member has no tasks:write (read-only token).
INSERT INTO "public"."user"
  ("id", "createdOn", "companyId", "email", "firstName", "lastName", "role", "passwordHash", "grantedScopes",
   "isActive", "avatarUrl", "preferences", "lastLoginOn")
VALUES
  (1, '2024-01-08T09:05:00Z', 1, 'alice.admin@acme.test', 'Alice', 'Anders', 'admin',
   '$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG', '["billing:read", "tasks:write"]',
   true, 'https://cdn.acme.test/avatars/1.png', '{"theme": "dark", "notifications": {"email": true, "push": false}}',
   '2026-06-01T08:15:00Z'),
  (2, '2024-01-09T10:00:00Z', 1, 'mark.manager@acme.test', 'Mark', 'Meyer', 'manager',
   '$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG', '["tasks:write"]',
   true, NULL, '{"theme": "light"}', '2026-05-28T16:40:00Z'),
  (3, '2024-01-10T11:00:00Z', 1, 'mia.member@acme.test', 'Mia', 'Moreau', 'member',
   '$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG', '["tasks:write"]',
   true, NULL, '{}', NULL),
  (4, '2024-03-18T14:35:00Z', 2, 'greta.admin@globex.test', 'Greta', 'Gruber', 'admin',
   '$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG', '["billing:read", "tasks:write"]',
   true, 'https://cdn.globex.test/u/4.jpg', '{"theme": "system", "locale": "de-DE"}', '2026-06-02T07:00:00Z'),
  (5, '2024-03-19T09:00:00Z', 2, 'gus.manager@globex.test', 'Gus', 'Garcia', 'manager',
   '$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG', '["billing:read", "tasks:write"]',
   true, NULL, '{"locale": "es-ES"}', NULL),
  (6, '2024-03-20T09:00:00Z', 2, 'gina.member@globex.test', 'Gina', 'Grün', 'member',
   '$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG', '[]',
   true, NULL, '{}', NULL),
  -- A deactivated account: login must refuse it; it still appears in GET /user for its company.
  (7, '2024-02-01T12:00:00Z', 1, 'oscar.former@acme.test', 'Oscar', 'Olsen', 'member',
   '$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG', '["tasks:write"]',
   false, NULL, '{}', '2025-02-14T17:00:00Z')
ON CONFLICT DO NOTHING;

-- Both companies have a project called "Website Redesign": the unique index is per company.
INSERT INTO "public"."project"
  ("id", "createdOn", "companyId", "ownerId", "name", "description", "status", "budget", "settings", "startDate", "dueDate")
VALUES
  (1, '2025-12-01T09:00:00Z', 1, 2, 'Warehouse Robot v2', 'Second generation of the pick-and-place robot.', 'active', 125000.00,
   '{"color": "#3366ff", "board": {"columns": ["todo", "doing", "review", "done"], "wipLimits": {"doing": 3, "review": 2}}, "notifications": {"slack": "#robot-v2"}}',
   '2026-01-05', '2027-03-31'),
  (2, '2026-02-10T13:00:00Z', 1, 1, 'Website Redesign', NULL, 'planning', 1234.50,
   '{"color": "#ff9900", "board": {"columns": ["todo", "done"]}}',
   '2027-01-04', NULL),
  (3, '2024-01-15T08:00:00Z', 1, NULL, 'Legacy Cleanup', 'Decommission the 2019 build farm.', 'archived', NULL,
   '{}', '2024-02-01', '2024-06-30'),
  (4, '2026-01-20T10:00:00Z', 2, 5, 'Fleet Telematics', 'GPS and fuel sensors for the truck fleet.', 'active', 987654.32,
   '{"color": "#22aa55", "integrations": {"gps": {"vendor": "TrackCo", "pollSeconds": 30, "regions": ["north", "south"]}}}',
   '2026-02-16', '2027-02-15'),
  (5, '2025-08-25T10:00:00Z', 2, 4, 'Website Redesign', 'New public website.', 'completed', 50000.00,
   '{"color": "#aa2255", "launch": {"url": "https://globex.test", "checklist": [{"item": "SEO", "done": true}, {"item": "a11y audit", "done": true}]}}',
   '2025-09-01', '2026-01-31')
ON CONFLICT DO NOTHING;

-- Tasks: some done, some unassigned, some overdue, some due after their project (GET /task/late-for-project),
-- estimates from 0.00 to 120.00 and NULL. Task 5's title holds % and _ for the literal-LIKE tests.
INSERT INTO "public"."task"
  ("id", "createdOn", "companyId", "projectId", "assigneeId", "createdById", "title", "description", "priority",
   "estimateHours", "done", "dueDate")
VALUES
  (1, '2026-01-06T09:00:00Z', 1, 1, 3, 2, 'Design gripper arm', 'Two-finger and three-finger variants.', 'high',
   24.00, false, '2026-02-20'),
  (2, '2026-01-06T09:10:00Z', 1, 1, 2, 2, 'Order servo motors', NULL, 'urgent',
   2.50, true, '2026-01-15'),
  (3, '2026-01-07T10:00:00Z', 1, 1, 3, 2, 'Write firmware for lidar module', 'Port the driver to the new SDK.', 'high',
   80.00, false, '2030-03-01'),
  (4, '2026-01-07T10:05:00Z', 1, 1, NULL, 1, 'Safety review', 'External auditor, ISO 10218.', 'medium',
   NULL, false, '2030-06-30'),
  (5, '2026-01-08T15:00:00Z', 1, 1, 1, 1, 'Calibrate 100% of sensors (batch_2)', NULL, 'low',
   0.50, false, NULL),
  (6, '2026-02-10T13:30:00Z', 1, 2, 3, 1, 'Draft sitemap', NULL, 'medium',
   4.00, true, '2026-03-15'),
  (7, '2026-02-10T13:35:00Z', 1, 2, NULL, 1, 'Pick a font pairing', 'Sans for body, slab for headings?', 'low',
   1.25, false, '2030-01-10'),
  (8, '2024-02-01T08:00:00Z', 1, 3, 2, NULL, 'Remove old CI runners', NULL, 'low',
   6.00, true, '2024-05-01'),
  (9, '2026-02-16T08:00:00Z', 2, 4, 6, 5, 'Install GPS units in 40 trucks', 'Northern depot first.', 'urgent',
   120.00, false, '2025-10-01'),
  (10, '2026-02-16T08:30:00Z', 2, 4, 5, 5, 'Dashboard for dispatch', 'Live map plus fuel alerts.', 'high',
   36.75, false, '2030-09-01'),
  (11, '2026-02-17T11:00:00Z', 2, 4, NULL, 4, 'Negotiate data plan', NULL, 'medium',
   NULL, false, NULL),
  (12, '2025-09-01T09:00:00Z', 2, 5, 4, 4, 'Launch new homepage', NULL, 'high',
   16.00, true, '2026-01-31'),
  (13, '2025-09-02T09:00:00Z', 2, 5, 6, 4, 'Fix footer links', 'Trivial: just links.', 'low',
   0.00, true, '2026-01-20')
ON CONFLICT DO NOTHING;

INSERT INTO "public"."comment" ("id", "createdOn", "taskId", "authorId", "body")
VALUES
  (1, '2026-01-12T10:00:00Z', 1, 3, 'First sketch uploaded: two-finger design, see attachment.'),
  (2, '2026-01-12T11:30:00Z', 1, 2, 'Looks good. Can we get a three-finger variant for comparison?'),
  (3, '2026-01-13T09:00:00Z', 1, 1, 'Approved budget for prototype parts: $1,234.50'),
  (4, '2026-01-20T16:45:00Z', 3, 3, 'Blocked on the lidar SDK licence.'),
  (5, '2026-02-11T08:00:00Z', 6, NULL, 'Imported from the old tracker.'),
  (6, '2026-03-02T07:30:00Z', 9, 6, '12 of 40 trucks done.'),
  (7, '2026-03-02T09:10:00Z', 9, 5, 'Please prioritise the northern depot.'),
  (8, '2026-01-31T18:00:00Z', 12, 4, 'Shipped! 🎉 Danke an alle.')
ON CONFLICT DO NOTHING;

-- Both companies have a tag called "hardware": the unique index is per company.
INSERT INTO "public"."tag" ("id", "companyId", "name", "color")
VALUES
  (1, 1, 'hardware', '#d9534f'),
  (2, 1, 'software', '#5bc0de'),
  (3, 1, 'blocked', '#f0ad4e'),
  (4, 2, 'hardware', '#333333'),
  (5, 2, 'customer', '#5cb85c')
ON CONFLICT DO NOTHING;

INSERT INTO "public"."task_tag" ("taskId", "tagId", "createdOn")
VALUES
  (1, 1, '2026-01-06T09:01:00Z'),
  (3, 2, '2026-01-07T10:01:00Z'),
  (3, 3, '2026-01-20T16:46:00Z'),
  (4, 3, '2026-01-07T10:06:00Z'),
  (9, 4, '2026-02-16T08:01:00Z'),
  (10, 5, '2026-02-16T08:31:00Z'),
  (12, 5, '2025-09-01T09:01:00Z')
ON CONFLICT DO NOTHING;

INSERT INTO "public"."invoice"
  ("id", "createdOn", "companyId", "number", "amount", "currency", "status", "issuedOn", "paidOn", "lineItems")
VALUES
  (1, '2026-01-31T23:00:00Z', 1, 'ACME-2026-001', 1234.50, 'USD', 'paid', '2026-01-31', '2026-02-10T09:30:00Z',
   '[{"description": "Team plan, 10 seats", "quantity": 10, "unitPrice": "99.00"}, {"description": "Onboarding", "quantity": 1, "unitPrice": "244.50"}]'),
  (2, '2026-02-28T23:00:00Z', 1, 'ACME-2026-002', 990.00, 'USD', 'issued', '2026-02-28', NULL,
   '[{"description": "Team plan, 10 seats", "quantity": 10, "unitPrice": "99.00"}]'),
  (3, '2026-03-01T10:00:00Z', 1, 'ACME-2026-003', 0.00, 'USD', 'void', '2026-03-01', NULL,
   '[]'),
  (4, '2026-01-31T23:00:00Z', 2, 'GLX-0001', 25000.00, 'EUR', 'paid', '2026-01-31', '2026-02-03T12:00:00Z',
   '[{"description": "Enterprise plan, annual", "quantity": 1, "unitPrice": "24000.00"}, {"description": "SSO add-on", "quantity": 1, "unitPrice": "1000.00", "meta": {"provider": "okta"}}]'),
  (5, '2026-06-01T08:00:00Z', 2, 'GLX-0002', 25000.00, 'EUR', 'draft', NULL, NULL,
   '[{"description": "Enterprise plan, annual", "quantity": 1, "unitPrice": "25000.00"}]')
ON CONFLICT DO NOTHING;

-- Move each id sequence past the seeded ids (task_tag has none: its key is composite).
SELECT setval(pg_get_serial_sequence('"public"."company"', 'id'), (SELECT max("id") FROM "public"."company"));
SELECT setval(pg_get_serial_sequence('"public"."user"', 'id'), (SELECT max("id") FROM "public"."user"));
SELECT setval(pg_get_serial_sequence('"public"."project"', 'id'), (SELECT max("id") FROM "public"."project"));
SELECT setval(pg_get_serial_sequence('"public"."task"', 'id'), (SELECT max("id") FROM "public"."task"));
SELECT setval(pg_get_serial_sequence('"public"."comment"', 'id'), (SELECT max("id") FROM "public"."comment"));
SELECT setval(pg_get_serial_sequence('"public"."tag"', 'id'), (SELECT max("id") FROM "public"."tag"));
SELECT setval(pg_get_serial_sequence('"public"."invoice"', 'id'), (SELECT max("id") FROM "public"."invoice"));

COMMIT;
