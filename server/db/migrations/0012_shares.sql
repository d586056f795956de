CREATE TABLE "shares" (
	"id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"owner_user_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"title" text NOT NULL,
	"owner_name" text,
	"messages" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shares_token_unique" ON "shares" USING btree ("token");--> statement-breakpoint
CREATE INDEX "shares_owner_idx" ON "shares" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "shares_conversation_idx" ON "shares" USING btree ("conversation_id");