import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@ams/shared";
import { ApiError, describeError } from "../api/client.ts";

/** A new password and its repetition, with the policy as a hint (the server checks the same lengths). */
export function NewPasswordFields(props: {
  idPrefix: string;
  password: string;
  repeat: string;
  onPassword(value: string): void;
  onRepeat(value: string): void;
}) {
  const { idPrefix: id } = props;
  return (
    <>
      <div class="field">
        <label for={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          autocomplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          aria-describedby={`${id}-password-hint`}
          value={props.password}
          onInput={(e) => props.onPassword(e.currentTarget.value)}
        />
        <p class="hint" id={`${id}-password-hint`}>
          At least {PASSWORD_MIN_LENGTH} characters.
        </p>
      </div>
      <div class="field">
        <label for={`${id}-repeat`}>Repeat the password</label>
        <input
          id={`${id}-repeat`}
          type="password"
          autocomplete="new-password"
          required
          value={props.repeat}
          onInput={(e) => props.onRepeat(e.currentTarget.value)}
        />
      </div>
    </>
  );
}

/** A refused password in words: better-auth's codes (session profile) and the local profile's field errors. */
export function explainPasswordError(err: unknown): string {
  if (err instanceof ApiError && err.code === "PASSWORD_TOO_SHORT")
    return `The password is too short: at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (err instanceof ApiError && err.code === "PASSWORD_TOO_LONG") return "The password is too long.";
  return describeError(err);
}
