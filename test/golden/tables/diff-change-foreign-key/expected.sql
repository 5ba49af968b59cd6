-- title: change foreign key "post"."post_author_fk" and 2 more
-- change: change foreign key "post"."post_author_fk"
-- change: drop foreign key "post"."post_editor_fk"
-- change: add foreign key "post"."post_reviewer_fk"

ALTER TABLE "public"."post" DROP CONSTRAINT "post_author_fk";

ALTER TABLE "public"."post" DROP CONSTRAINT "post_editor_fk";

ALTER TABLE "public"."post" ADD CONSTRAINT "post_author_fk" FOREIGN KEY ("authorId") REFERENCES "public"."user" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "public"."post" ADD CONSTRAINT "post_reviewer_fk" FOREIGN KEY ("reviewerId") REFERENCES "public"."user" ("id") ON DELETE SET NULL ON UPDATE NO ACTION;
