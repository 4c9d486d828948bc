import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { SiteMessages } from "../api/types.ts";
import { session } from "../app/session.ts";
import { FormError } from "../ui/form.tsx";
import { notify } from "../ui/notices.tsx";

type Kind = keyof SiteMessages;

function MessageEditor(props: {
  kind: Kind;
  label: string;
  hint: string;
  value: SiteMessages[Kind];
  onChange: (v: SiteMessages[Kind]) => void;
}) {
  const id = `message-${props.kind}`;
  return (
    <fieldset>
      <legend>{props.label}</legend>
      <label class="radio">
        <input
          type="checkbox"
          checked={props.value.enabled}
          onChange={(e) => props.onChange({ ...props.value, enabled: e.currentTarget.checked })}
        />
        Show the {props.label.toLowerCase()}
      </label>
      <div class="field">
        <label for={id}>Text</label>
        <textarea
          id={id}
          rows={3}
          maxLength={2000}
          value={props.value.text}
          onInput={(e) => props.onChange({ ...props.value, text: e.currentTarget.value })}
        />
        <p class="hint">{props.hint}</p>
      </div>
    </fieldset>
  );
}

/** The login message and the banner, with a preview of each as users will see it. */
export function PlatformMessages() {
  const [draft, setDraft] = useState<SiteMessages | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .get<SiteMessages>("/api/settings/messages")
      .then(setDraft)
      .catch((err) => setError(describeError(err)));
  }, []);
  if (!draft) return error ? <p class="form-error">{error}</p> : <p aria-busy="true">Loading…</p>;
  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const saved = await api.put<SiteMessages>("/api/settings/messages", draft);
      session.set((s) => ({ ...s, messages: saved }));
      notify("Site messages saved.");
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <section aria-labelledby="messages-title">
      <h2 id="messages-title">Site messages</h2>
      <form onSubmit={save}>
        <div class="messages-grid">
          <div>
            <MessageEditor
              kind="login"
              label="Login message"
              hint="Shown on the sign-in page, above the form."
              value={draft.login}
              onChange={(login) => setDraft({ ...draft, login })}
            />
            <MessageEditor
              kind="banner"
              label="Banner"
              hint="Shown at the top of every page to everyone signed in."
              value={draft.banner}
              onChange={(banner) => setDraft({ ...draft, banner })}
            />
          </div>
          <section aria-label="Preview">
            <h3>Preview</h3>
            <div class="preview-frame">
              <p class="muted small">Sign-in page</p>
              {draft.login.enabled && draft.login.text ? (
                <p class="login-message">{draft.login.text}</p>
              ) : (
                <p class="muted">No login message is shown.</p>
              )}
            </div>
            <div class="preview-frame">
              <p class="muted small">Every page</p>
              {draft.banner.enabled && draft.banner.text ? (
                <div class="site-banner">{draft.banner.text}</div>
              ) : (
                <p class="muted">No banner is shown.</p>
              )}
            </div>
          </section>
        </div>
        <FormError error={error} />
        <button type="submit" class="primary">
          Save messages
        </button>
      </form>
    </section>
  );
}
