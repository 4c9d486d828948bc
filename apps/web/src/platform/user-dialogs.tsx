import { useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { CreatedUser, PasswordLink, PlatformUser } from "../api/types.ts";
import { CopyBlock, formatDate } from "../ui/copy.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError, TextField } from "../ui/form.tsx";

export const userPath = (id: string) => `/api/platform/users/${encodeURIComponent(id)}`;

/** New account: with a first password (to change at first sign-in) or, without one, a set-password link. */
export function CreateUserDialog(props: { onClose(): void; onCreated(created: CreatedUser): void }) {
  const [form, setForm] = useState({ username: "", name: "", email: "", password: "" });
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const { password, ...rest } = form;
      props.onCreated(await api.post<CreatedUser>("/api/platform/users", password ? form : rest));
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title="New user" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <TextField
          id="new-user-username"
          label="Username"
          required
          maxLength={64}
          value={form.username}
          onValue={set("username")}
        />
        <TextField
          id="new-user-name"
          label="Full name"
          required
          maxLength={200}
          value={form.name}
          onValue={set("name")}
        />
        <TextField
          id="new-user-email"
          label="E-mail address"
          type="email"
          required
          value={form.email}
          onValue={set("email")}
        />
        <TextField
          id="new-user-password"
          label="First password (optional)"
          type="password"
          autocomplete="new-password"
          minLength={12}
          value={form.password}
          onValue={set("password")}
        />
        <p class="hint">
          With a first password the user must choose a new one at first sign-in. Without one you get a link, valid 24
          hours, where they choose it (it is e-mailed to them too when e-mail is set up).
        </p>
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Create user" />
      </form>
    </Dialog>
  );
}

export function EditUserDialog(props: { user: PlatformUser; onClose(): void; onSaved(): void }) {
  const [name, setName] = useState(props.user.name);
  const [email, setEmail] = useState(props.user.email);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      await api.put(userPath(props.user.id), { name, email });
      props.onSaved();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title={`Edit ${props.user.username}`} onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <TextField id="edit-user-name" label="Full name" required maxLength={200} value={name} onValue={setName} />
        <TextField id="edit-user-email" label="E-mail address" type="email" required value={email} onValue={setEmail} />
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Save" />
      </form>
    </Dialog>
  );
}

/** A one-time set-password link, shown once to pass on by hand (and said whether it was e-mailed). */
export function PasswordLinkDialog(props: {
  username: string;
  link: PasswordLink;
  reason: "created" | "reset";
  onClose(): void;
}) {
  return (
    <Dialog title={props.reason === "created" ? "User created" : "Password reset"} onClose={props.onClose}>
      <div class="dialog-body">
        <p>
          {props.reason === "created"
            ? `${props.username} chooses a password with this link.`
            : `Every session and token of ${props.username} has ended. They choose a new password with this link.`}{" "}
          It works once, until {formatDate(props.link.expires_at)}.
        </p>
        <p role="status">
          {props.link.email_sent
            ? "It has been e-mailed to them as well."
            : "It was not e-mailed (e-mail is not set up or sending failed): pass it on yourself."}
        </p>
        <CopyBlock id="password-link" label="Set-password link" text={props.link.url} copyLabel="Copy link" />
        <footer class="dialog-actions">
          <button type="button" class="primary" onClick={props.onClose}>
            Done
          </button>
        </footer>
      </div>
    </Dialog>
  );
}
