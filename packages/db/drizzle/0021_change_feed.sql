-- The change feed's wake-up (packages/model/src/events/change-feed.ts): each committed change group is announced on
-- channel change_groups as '<workspace_id>:<revision>'. PostgreSQL delivers a NOTIFY only when (and if) its
-- transaction commits, to every listening connection, in commit order, whichever process wrote the group (tenant,
-- mcp, control standalone, a migration): readers learn of a change after its commit without a second write path.
-- The announcement is only a wake-up; readers read the groups themselves from change_groups by revision.
CREATE FUNCTION ams_announce_change_group() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('change_groups', NEW.workspace_id::text || ':' || NEW.revision::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER change_groups_announce AFTER INSERT ON change_groups FOR EACH ROW
  EXECUTE FUNCTION ams_announce_change_group();
