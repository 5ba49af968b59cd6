-- Seed for the Restura fixture (test/fixtures/restura-example) in the route function tests.
INSERT INTO "public"."company" ("id", "createdOn", "modifiedOn", "name") VALUES
  (1, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 'Initech'),
  (2, '2024-02-01T00:00:00Z', '2024-02-01T00:00:00Z', NULL);
INSERT INTO "public"."user" ("id", "createdOn", "modifiedOn", "firstName", "lastName", "companyId", "password", "email", "role",
  "permissionLogin", "lastLoginOn", "phone", "accountStatus", "onboardingStatus", "testAge", "metadata", "birthDate") VALUES
  (1, '2024-01-02T10:00:00Z', '2024-01-03T10:00:00Z', 'Bill', 'Lumbergh', 1, 'hash-1', 'bill@initech.test', 'admin', true, '2024-05-01T08:00:00Z', '555-0101', 'active', 'complete', 50, '{"tier": "gold"}', '1970-03-04'),
  (2, '2024-03-05T12:30:00Z', '2024-03-05T12:30:00Z', 'Peter', 'Gibbons', 1, 'hash-2', 'peter@initech.test', 'user', true, NULL, NULL, 'active', 'complete', 32, '{}', NULL),
  (3, '2024-06-10T09:15:00.5Z', '2024-06-10T09:15:00.5Z', 'Milton', 'Waddams', 2, 'hash-3', 'milton@initech.test', 'user', false, NULL, NULL, 'view_only', 'verify_email', 45, '{"stapler": "red"}', NULL);
INSERT INTO "public"."order" ("id", "createdOn", "modifiedOn", "userId", "amountCents", "amount") VALUES
  (1, '2024-04-01T00:00:00Z', '2024-04-01T00:00:00Z', 1, 1999, 19.99),
  (2, '2024-04-02T00:00:00Z', '2024-04-02T00:00:00Z', 1, 500, 5.00),
  (3, '2024-04-03T00:00:00Z', '2024-04-03T00:00:00Z', 2, 123456, NULL);
INSERT INTO "public"."item" ("id", "createdOn", "modifiedOn", "orderId") VALUES
  (1, '2024-04-01T00:00:01Z', '2024-04-01T00:00:01Z', 1),
  (2, '2024-04-01T00:00:02Z', '2024-04-01T00:00:02Z', NULL);
