-- Sign-out revokes an access token by its unique id (jti), no longer by the token's hash: entries of the old kind
-- name tokens that carry no jti, which the verifier no longer accepts anyway, so they go.
DELETE FROM "revoked_access_tokens";--> statement-breakpoint
ALTER TABLE "revoked_access_tokens" DROP COLUMN "token_hash";--> statement-breakpoint
ALTER TABLE "revoked_access_tokens" ADD COLUMN "jti" text PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tokens_valid_after" timestamp with time zone;--> statement-breakpoint
-- Every control replica keeps what it read of a user's access state (tokens_valid_after, role, banned, ban_expires) and of
-- revoked token ids in memory; these triggers tell them, at commit, that it changed (LISTEN access_changes).
CREATE FUNCTION ams_announce_user_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_changes', 'user:' || OLD.id);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_access_change AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.tokens_valid_after IS DISTINCT FROM NEW.tokens_valid_after
    OR OLD.role IS DISTINCT FROM NEW.role OR OLD.banned IS DISTINCT FROM NEW.banned
    OR OLD.ban_expires IS DISTINCT FROM NEW.ban_expires)
  EXECUTE FUNCTION ams_announce_user_access();--> statement-breakpoint
CREATE TRIGGER users_access_delete AFTER DELETE ON users FOR EACH ROW
  EXECUTE FUNCTION ams_announce_user_access();--> statement-breakpoint
CREATE FUNCTION ams_announce_revoked_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_changes', 'jti:' || NEW.jti);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER revoked_access_tokens_announce AFTER INSERT ON revoked_access_tokens FOR EACH ROW
  EXECUTE FUNCTION ams_announce_revoked_token();
