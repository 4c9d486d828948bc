CREATE TABLE "access_versions" (
	"user_id" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- The gateway's standing of a user (organization, role, teams, visible workspaces, the two-factor rule) is remembered
-- by each control replica beside the user's counter; these triggers raise the counter in the transaction that
-- changes what the standing is read from, whoever writes, so the next request anywhere reads a new counter.
CREATE FUNCTION ams_raise_access_versions(ids text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO access_versions AS a (user_id, version)
  SELECT DISTINCT u, 1 FROM unnest(ids) AS u WHERE u IS NOT NULL ORDER BY 1
  ON CONFLICT (user_id) DO UPDATE SET version = a.version + 1
$$;--> statement-breakpoint
-- Every member of these organizations.
CREATE FUNCTION ams_raise_org_access_versions(orgs uuid[]) RETURNS void LANGUAGE sql AS $$
  SELECT ams_raise_access_versions(array(SELECT m.user_id FROM memberships m WHERE m.organization_id = ANY(orgs)))
$$;--> statement-breakpoint
-- memberships, team_members, user_selections: the users of the rows written (statement-level, so a bulk write
-- raises each user once).
CREATE FUNCTION ams_access_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ams_raise_access_versions(array(SELECT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ams_raise_access_versions(array(SELECT user_id FROM old_rows));
  ELSE
    PERFORM ams_raise_access_versions(array(SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['memberships', 'team_members', 'user_selections'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ams_access_rows_changed()', t || '_access_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ams_access_rows_changed()', t || '_access_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ams_access_rows_changed()', t || '_access_delete', t);
  END LOOP;
END
$$;--> statement-breakpoint
-- users: the two-factor flag (an organization may require it) and what an API token's lookup answers of its owner
-- (disabled, names, e-mail, must change password); a deleted user's remembered standings go too.
CREATE FUNCTION ams_access_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ams_raise_access_versions(ARRAY[OLD.id]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_access_version AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.two_factor_enabled IS DISTINCT FROM NEW.two_factor_enabled OR OLD.banned IS DISTINCT FROM NEW.banned
    OR OLD.username IS DISTINCT FROM NEW.username OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.email IS DISTINCT FROM NEW.email OR OLD.email_verified IS DISTINCT FROM NEW.email_verified
    OR OLD.must_change_password IS DISTINCT FROM NEW.must_change_password)
  EXECUTE FUNCTION ams_access_user_changed();--> statement-breakpoint
CREATE TRIGGER users_access_version_delete AFTER DELETE ON users FOR EACH ROW
  EXECUTE FUNCTION ams_access_user_changed();--> statement-breakpoint
-- organizations: suspension and the two-factor rule, for every member (a deleted organization's memberships go by
-- cascade, which the memberships triggers announce).
CREATE FUNCTION ams_access_org_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ams_raise_org_access_versions(ARRAY[NEW.id]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER organizations_access_version AFTER UPDATE ON organizations FOR EACH ROW
  WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled OR OLD.require_two_factor IS DISTINCT FROM NEW.require_two_factor)
  EXECUTE FUNCTION ams_access_org_changed();--> statement-breakpoint
-- workspaces: created, deleted or moved (the first visible workspace is part of the standing), for every member of
-- the organizations concerned. Updates of anything else (a model write raises workspaces.revision) raise nothing.
CREATE FUNCTION ams_access_workspaces_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ams_raise_org_access_versions(array(SELECT DISTINCT organization_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ams_raise_org_access_versions(array(SELECT DISTINCT organization_id FROM old_rows));
  ELSE
    PERFORM ams_raise_org_access_versions(ARRAY[OLD.organization_id, NEW.organization_id]);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER workspaces_access_insert AFTER INSERT ON workspaces REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ams_access_workspaces_changed();--> statement-breakpoint
CREATE TRIGGER workspaces_access_delete AFTER DELETE ON workspaces REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ams_access_workspaces_changed();--> statement-breakpoint
CREATE TRIGGER workspaces_access_move AFTER UPDATE ON workspaces FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION ams_access_workspaces_changed();--> statement-breakpoint
-- workspace_teams: a workspace's team assignment, for every member of its organization (found through the workspace,
-- else the team: when either was deleted, its own trigger has announced it).
CREATE FUNCTION ams_access_workspace_teams_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM ams_raise_org_access_versions(array(
      SELECT w.organization_id FROM workspaces w WHERE w.id IN (SELECT workspace_id FROM new_rows)
      UNION SELECT t.organization_id FROM teams t WHERE t.id IN (SELECT team_id FROM new_rows)));
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM ams_raise_org_access_versions(array(
      SELECT w.organization_id FROM workspaces w WHERE w.id IN (SELECT workspace_id FROM old_rows)
      UNION SELECT t.organization_id FROM teams t WHERE t.id IN (SELECT team_id FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER workspace_teams_access_insert AFTER INSERT ON workspace_teams REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ams_access_workspace_teams_changed();--> statement-breakpoint
CREATE TRIGGER workspace_teams_access_update AFTER UPDATE ON workspace_teams
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ams_access_workspace_teams_changed();--> statement-breakpoint
CREATE TRIGGER workspace_teams_access_delete AFTER DELETE ON workspace_teams REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ams_access_workspace_teams_changed();--> statement-breakpoint
-- teams: moved to another organization (the team ids of a standing are those of its organization).
CREATE FUNCTION ams_access_team_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ams_raise_org_access_versions(ARRAY[OLD.organization_id, NEW.organization_id]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER teams_access_move AFTER UPDATE ON teams FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION ams_access_team_moved();
--> statement-breakpoint
-- api_tokens: a token revoked, renamed, re-scoped or deleted, for its owner (a new token has a hash nobody remembers).
CREATE FUNCTION ams_access_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ams_raise_access_versions(array(SELECT user_id FROM old_rows));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER api_tokens_access_update AFTER UPDATE ON api_tokens REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ams_access_tokens_changed();--> statement-breakpoint
CREATE TRIGGER api_tokens_access_delete AFTER DELETE ON api_tokens REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ams_access_tokens_changed();--> statement-breakpoint
-- oauth_refresh_tokens: the OAuth client an API token answers with is read through them.
CREATE FUNCTION ams_access_grants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ams_raise_access_versions(array(
      SELECT t.user_id FROM api_tokens t WHERE t.id IN (SELECT api_token_id FROM new_rows)));
  ELSE
    PERFORM ams_raise_access_versions(array(
      SELECT t.user_id FROM api_tokens t WHERE t.id IN (SELECT api_token_id FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER oauth_refresh_tokens_access_insert AFTER INSERT ON oauth_refresh_tokens
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ams_access_grants_changed();--> statement-breakpoint
CREATE TRIGGER oauth_refresh_tokens_access_delete AFTER DELETE ON oauth_refresh_tokens
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ams_access_grants_changed();--> statement-breakpoint
-- oauth_clients: a client's name, for the owners of the tokens granted to it.
CREATE FUNCTION ams_access_client_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ams_raise_access_versions(array(
    SELECT t.user_id FROM oauth_refresh_tokens r JOIN api_tokens t ON t.id = r.api_token_id
    WHERE r.client_id = NEW.client_id));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER oauth_clients_access_rename AFTER UPDATE ON oauth_clients FOR EACH ROW
  WHEN (OLD.client_name IS DISTINCT FROM NEW.client_name) EXECUTE FUNCTION ams_access_client_renamed();
