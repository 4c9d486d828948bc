ALTER TABLE "change_groups" ADD COLUMN "entry_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "change_groups" ADD COLUMN "kinds" text[] DEFAULT '{}'::text[] NOT NULL;