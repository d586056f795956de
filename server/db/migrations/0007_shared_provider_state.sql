CREATE TABLE "provider_tokens" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wechat_simulator_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wechat_simulator_codes_expires_idx" ON "wechat_simulator_codes" USING btree ("expires_at");