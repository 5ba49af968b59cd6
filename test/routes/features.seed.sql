-- Seed for features.schema.json (test/routes). Run as superuser after the API layer is built.
INSERT INTO "public"."team" ("id", "name", "secret", "budget") VALUES
  (1, 'Red', 'red-secret', 1000.50),
  (2, 'Blue', 'blue-secret', NULL),
  (3, 'Empty', 'nothing', 0.00);
INSERT INTO "public"."member"
  ("id", "teamId", "name", "code", "joinedOn", "lastSeen", "score", "ratio", "active", "profile", "salary", "note", "mentorId", "uid")
VALUES
  (1, 1, 'Ann', 'AAA', '2023-05-01', '2024-01-02T03:04:05.123456Z', 10, 0.5, true, '{"city": "Oslo", "level": 3}', 5000.00, NULL, NULL, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
  (2, 1, 'Bob 50% off', 'B%B', '2024-02-29', NULL, 20, 1.25, true, '{"city": "Rome"}', 4200.10, 'likes 100%', 1, NULL),
  (3, 1, 'Cy_d', 'C_C', '2024-07-15', '2024-07-16T00:00:00Z', 30, -2, false, '{}', NULL, 'under_score', 1, NULL),
  (4, 2, 'Dee\x', 'D\D', '2022-12-31', NULL, 20, 0, true, '{"city": "Oslo"}', 100.00, 'back\slash', 2, NULL),
  (5, 2, 'eve', 'E', '2025-01-01', NULL, -5, 3.75, false, '[1, 2]', NULL, NULL, NULL, NULL);
INSERT INTO "public"."vault" ("id", "teamId", "content") VALUES (1, 1, 'gold'), (2, 1, 'silver'), (3, 2, 'bronze');
INSERT INTO "public"."tag_link" ("memberId", "tag", "weight") VALUES
  (1, 'lead', 2), (1, 'ops', 5), (2, 'ops', 1), (3, 'dev', 1), (3, 'ops', 1);
