ALTER TABLE "conversations" ADD COLUMN "title_by" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "title_search" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "content_search" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "conversations" SET "title_by" = 'person' WHERE "title" IS NOT NULL;--> statement-breakpoint
UPDATE "conversations" SET "title_search" = lower(normalize(regexp_replace(normalize(lower("title"), NFKD), '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g'), NFKC)) WHERE "title" IS NOT NULL;--> statement-breakpoint
UPDATE "messages" SET "content_search" = lower(normalize(regexp_replace(normalize(lower("content"), NFKD), '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g'), NFKC));
