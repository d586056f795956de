ALTER TABLE "conversations" ADD COLUMN "current_leaf_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "parent_id" text;--> statement-breakpoint
CREATE INDEX "messages_parent_idx" ON "messages" USING btree ("parent_id");--> statement-breakpoint
UPDATE "messages" SET "parent_id" = "line"."previous" FROM (SELECT "id", lag("id") OVER (PARTITION BY "conversation_id" ORDER BY "seq") AS "previous" FROM "messages") AS "line" WHERE "messages"."id" = "line"."id";--> statement-breakpoint
UPDATE "conversations" SET "current_leaf_id" = "last"."id" FROM (SELECT DISTINCT ON ("conversation_id") "conversation_id", "id" FROM "messages" ORDER BY "conversation_id", "seq" DESC) AS "last" WHERE "conversations"."id" = "last"."conversation_id";
