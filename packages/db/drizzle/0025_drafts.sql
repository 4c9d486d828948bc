CREATE TABLE "draft_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"draft_id" uuid NOT NULL,
	"author_id" text,
	"author_name" text,
	"object_id" text,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "draft_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"draft_id" uuid NOT NULL,
	"reviewer_id" text NOT NULL,
	"reviewer_name" text,
	"decision" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drafts" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"base_workspace_id" uuid,
	"base_name" text NOT NULL,
	"base_revision" bigint NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"author_id" text,
	"author_name" text,
	"via_kind" text,
	"via_name" text,
	"conversation" text,
	"submitted_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"closed_reason" text,
	"merged_revision" bigint,
	"merged_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "assistant" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "draft_approvals_required" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "assistants_write_to_drafts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "read_only_reason" text;--> statement-breakpoint
ALTER TABLE "draft_comments" ADD CONSTRAINT "draft_comments_draft_id_drafts_workspace_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("workspace_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "draft_reviews" ADD CONSTRAINT "draft_reviews_draft_id_drafts_workspace_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("workspace_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_base_workspace_id_workspaces_id_fk" FOREIGN KEY ("base_workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "draft_comments_draft_idx" ON "draft_comments" USING btree ("draft_id","created_at");--> statement-breakpoint
CREATE INDEX "draft_reviews_draft_idx" ON "draft_reviews" USING btree ("draft_id","created_at");--> statement-breakpoint
CREATE INDEX "drafts_base_idx" ON "drafts" USING btree ("base_workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "drafts_conversation_idx" ON "drafts" USING btree ("organization_id","conversation") WHERE conversation is not null and state in ('open', 'submitted');