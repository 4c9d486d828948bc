CREATE TABLE "connections" (
	"workspace_id" uuid NOT NULL,
	"id" text NOT NULL,
	"view_id" text NOT NULL,
	"ord" integer NOT NULL,
	"kind" text NOT NULL,
	"relationship_id" text,
	"source_id" text NOT NULL,
	"target_id" text NOT NULL,
	"bendpoints" jsonb,
	"label" text,
	"documentation" text,
	"i18n" jsonb,
	"style" jsonb,
	CONSTRAINT "connections_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "elements" (
	"workspace_id" uuid NOT NULL,
	"id" text NOT NULL,
	"ord" integer NOT NULL,
	"type" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"documentation" text,
	"i18n" jsonb,
	CONSTRAINT "elements_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"workspace_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"parent_id" integer,
	"ord" integer NOT NULL,
	"identifier" text,
	"label" text,
	"documentation" text,
	"ref_id" text,
	"i18n" jsonb,
	CONSTRAINT "folders_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"organization_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"is_personal" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "property_definitions" (
	"workspace_id" uuid NOT NULL,
	"id" text NOT NULL,
	"ord" integer NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'string' NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"i18n" jsonb,
	CONSTRAINT "property_definitions_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "property_values" (
	"workspace_id" uuid NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"ord" integer NOT NULL,
	"definition_id" text NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"i18n" jsonb,
	CONSTRAINT "property_values_workspace_id_owner_kind_owner_id_ord_pk" PRIMARY KEY("workspace_id","owner_kind","owner_id","ord")
);
--> statement-breakpoint
CREATE TABLE "relationships" (
	"workspace_id" uuid NOT NULL,
	"id" text NOT NULL,
	"ord" integer NOT NULL,
	"type" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" text NOT NULL,
	"name" text,
	"documentation" text,
	"is_directed" boolean,
	"access_type" text,
	"influence_strength" text,
	"i18n" jsonb,
	CONSTRAINT "relationships_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "user_selections" (
	"user_id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid,
	"workspace_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "view_nodes" (
	"workspace_id" uuid NOT NULL,
	"id" text NOT NULL,
	"view_id" text NOT NULL,
	"parent_id" text,
	"ord" integer NOT NULL,
	"kind" text NOT NULL,
	"element_id" text,
	"x" integer DEFAULT 0 NOT NULL,
	"y" integer DEFAULT 0 NOT NULL,
	"w" integer DEFAULT 120 NOT NULL,
	"h" integer DEFAULT 55 NOT NULL,
	"label" text,
	"documentation" text,
	"i18n" jsonb,
	"style" jsonb,
	CONSTRAINT "view_nodes_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "views" (
	"workspace_id" uuid NOT NULL,
	"id" text NOT NULL,
	"ord" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"viewpoint" text,
	"documentation" text,
	"i18n" jsonb,
	CONSTRAINT "views_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"model" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_workspace_id_view_id_views_workspace_id_id_fk" FOREIGN KEY ("workspace_id","view_id") REFERENCES "public"."views"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_workspace_id_relationship_id_relationships_workspace_id_id_fk" FOREIGN KEY ("workspace_id","relationship_id") REFERENCES "public"."relationships"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elements" ADD CONSTRAINT "elements_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_definitions" ADD CONSTRAINT "property_definitions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_values" ADD CONSTRAINT "property_values_workspace_id_definition_id_property_definitions_workspace_id_id_fk" FOREIGN KEY ("workspace_id","definition_id") REFERENCES "public"."property_definitions"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relationships" ADD CONSTRAINT "relationships_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_selections" ADD CONSTRAINT "user_selections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_selections" ADD CONSTRAINT "user_selections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_nodes" ADD CONSTRAINT "view_nodes_workspace_id_view_id_views_workspace_id_id_fk" FOREIGN KEY ("workspace_id","view_id") REFERENCES "public"."views"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_nodes" ADD CONSTRAINT "view_nodes_workspace_id_parent_id_view_nodes_workspace_id_id_fk" FOREIGN KEY ("workspace_id","parent_id") REFERENCES "public"."view_nodes"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_nodes" ADD CONSTRAINT "view_nodes_workspace_id_element_id_elements_workspace_id_id_fk" FOREIGN KEY ("workspace_id","element_id") REFERENCES "public"."elements"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connections_ws_view_idx" ON "connections" USING btree ("workspace_id","view_id","ord");--> statement-breakpoint
CREATE INDEX "connections_ws_rel_idx" ON "connections" USING btree ("workspace_id","relationship_id");--> statement-breakpoint
CREATE INDEX "elements_ws_ord_idx" ON "elements" USING btree ("workspace_id","ord");--> statement-breakpoint
CREATE INDEX "folders_ws_parent_idx" ON "folders" USING btree ("workspace_id","parent_id","ord");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "property_values_ws_def_idx" ON "property_values" USING btree ("workspace_id","definition_id");--> statement-breakpoint
CREATE INDEX "relationships_ws_ord_idx" ON "relationships" USING btree ("workspace_id","ord");--> statement-breakpoint
CREATE INDEX "relationships_ws_source_idx" ON "relationships" USING btree ("workspace_id","source_id");--> statement-breakpoint
CREATE INDEX "relationships_ws_target_idx" ON "relationships" USING btree ("workspace_id","target_id");--> statement-breakpoint
CREATE INDEX "view_nodes_ws_view_idx" ON "view_nodes" USING btree ("workspace_id","view_id","ord");--> statement-breakpoint
CREATE INDEX "view_nodes_ws_element_idx" ON "view_nodes" USING btree ("workspace_id","element_id");--> statement-breakpoint
CREATE INDEX "views_ws_ord_idx" ON "views" USING btree ("workspace_id","ord");--> statement-breakpoint
CREATE INDEX "workspaces_org_idx" ON "workspaces" USING btree ("organization_id");