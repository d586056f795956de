CREATE TABLE "agent_drafts" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"content" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	"updated_by_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"agent_id" text NOT NULL,
	"content" jsonb NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"created_by_name" text NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text,
	"reviewed_by_name" text,
	"review_note" text
);
--> statement-breakpoint
CREATE TABLE "model_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"base_url" text NOT NULL,
	"sealed_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "models" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL,
	"model" text NOT NULL,
	"display_name" text NOT NULL,
	"context_window" integer,
	"max_output" integer,
	"vision" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ALTER COLUMN "company_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "visibility" text DEFAULT 'organisation' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "model_id" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "parameters" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "starters" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "allow_model_choice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "agent_version_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "model_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "model_name" text;--> statement-breakpoint
ALTER TABLE "agent_drafts" ADD CONSTRAINT "agent_drafts_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_versions" ADD CONSTRAINT "agent_versions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_providers" ADD CONSTRAINT "model_providers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_provider_id_model_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."model_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_versions_agent_idx" ON "agent_versions" USING btree ("agent_id","seq");--> statement-breakpoint
CREATE INDEX "agent_versions_pending_idx" ON "agent_versions" USING btree ("seq") WHERE "agent_versions"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "models_provider_model_unique" ON "models" USING btree ("provider_id","model");--> statement-breakpoint
CREATE UNIQUE INDEX "models_one_default" ON "models" USING btree ("is_default") WHERE "models"."is_default";--> statement-breakpoint
CREATE INDEX "agents_author_idx" ON "agents" USING btree ("create_by","updated_at");--> statement-breakpoint
UPDATE "agents" SET "visibility" = CASE WHEN "public" THEN 'public' ELSE 'organisation' END;--> statement-breakpoint
UPDATE "agents" SET "version_id" = '' WHERE NOT "published";
