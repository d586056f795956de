ALTER TABLE "messages" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "publish_attempted_at" timestamp with time zone;--> statement-breakpoint
-- Tasks left publishing by a server from before leases may have reached the platform: a takeover must not post them again.
UPDATE "tasks" SET "publish_attempted_at" = "updated_at" WHERE "status" = 'publishing';
