CREATE TABLE "wechat_identities" (
	"app_id" text NOT NULL,
	"openid" text NOT NULL,
	"unionid" text,
	"user_id" text NOT NULL,
	"nickname" text NOT NULL,
	"avatar" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wechat_identities_app_id_openid_pk" PRIMARY KEY("app_id","openid")
);
--> statement-breakpoint
ALTER TABLE "wechat_identities" ADD CONSTRAINT "wechat_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wechat_identities_unionid_idx" ON "wechat_identities" USING btree ("unionid");--> statement-breakpoint
CREATE INDEX "wechat_identities_user_idx" ON "wechat_identities" USING btree ("user_id");