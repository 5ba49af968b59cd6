-- Seed for nulls.schema.json (test/routes/nullOrder.test.ts): NULLs in every sort key, ties
-- among NULLs and among values, so the primary-key tiebreak shows too.
INSERT INTO "public"."item" ("id", "label", "rank", "groupId") VALUES
  (1, 'a', 2, 1),
  (2, 'b', NULL, NULL),
  (3, 'c', 1, 1),
  (4, 'd', NULL, 2),
  (5, 'e', 2, NULL),
  (6, 'f', 3, 2);
INSERT INTO "public"."part" ("id", "itemId", "weight") VALUES
  (1, 1, 5),
  (2, 1, NULL),
  (3, 1, 1),
  (4, 1, NULL);
