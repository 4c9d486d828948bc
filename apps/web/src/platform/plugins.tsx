import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import type { PluginDetail, PluginSummary } from "../api/types.ts";
import { onLinkClick } from "../app/router.ts";
import { notify, notifyError } from "../ui/notices.tsx";

const pluginPath = (slug: string) => `/api/platform/plugins/${encodeURIComponent(slug)}`;

async function setEnabled(p: PluginSummary, enabled: boolean, after: () => void): Promise<void> {
  try {
    await api.put(pluginPath(p.slug), { enabled });
    notify(
      enabled
        ? `${p.name} is enabled: its icons are offered in every organization's icon picker.`
        : `${p.name} is disabled: its icons are no longer offered; elements that use them show their type icon.`,
    );
    after();
  } catch (err) {
    notifyError(err);
  }
}

function EnableButton(props: { plugin: PluginSummary; onChanged: () => void }) {
  const p = props.plugin;
  if (p.placeholder)
    return (
      <span class="muted" title="Only icon-pack plugins can be served">
        {p.type}: cannot be enabled
      </span>
    );
  return p.enabled ? (
    <button type="button" onClick={() => setEnabled(p, false, props.onChanged)} aria-label={`Disable ${p.name}`}>
      Disable
    </button>
  ) : (
    <button
      type="button"
      class="primary"
      onClick={() => setEnabled(p, true, props.onChanged)}
      aria-label={`Enable ${p.name}`}
    >
      Enable
    </button>
  );
}

/** Every plugin found at start-up, enabled or not, with a link to its icon gallery. */
export function PlatformPlugins() {
  const [list, setList] = useState<PluginSummary[] | null>(null);
  const load = () =>
    api
      .get<PluginSummary[]>("/api/platform/plugins")
      .then(setList)
      .catch((err) => {
        setList([]);
        notifyError(err);
      });
  useEffect(() => {
    load();
  }, []);
  return (
    <section aria-labelledby="plugins-title">
      <h2 id="plugins-title">Plugins</h2>
      <p class="muted">
        Icon packs give elements a custom icon (the <code>Service Plugin IconPack</code> property). Disabling a pack
        hides its icons everywhere at once; nothing in the models is changed.
      </p>
      {list === null ? (
        <p aria-busy="true">Loading plugins…</p>
      ) : list.length === 0 ? (
        <p class="empty">No plugins were found in the plugins folder.</p>
      ) : (
        <table class="table data-table" aria-label="Plugins">
          <thead>
            <tr>
              <th scope="col">Plugin</th>
              <th scope="col">Version</th>
              <th scope="col">Icons</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => (
              <tr key={p.slug} data-plugin={p.slug}>
                <td>
                  <a href={`/platform/plugins/${encodeURIComponent(p.slug)}`} onClick={onLinkClick}>
                    {p.name}
                  </a>
                  {p.description ? <div class="muted small">{p.description}</div> : null}
                </td>
                <td>{p.version}</td>
                <td>{p.icon_count}</td>
                <td>{p.enabled ? "enabled" : "disabled"}</td>
                <td>
                  <EnableButton plugin={p} onChanged={load} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const PAGE = 300;

/** One pack's icons, searchable; drawn from the Admin's preview route, so a disabled pack shows too. */
export function PluginGallery(props: { slug: string }) {
  const [plugin, setPlugin] = useState<PluginDetail | null>(null);
  const [query, setQuery] = useState("");
  const [limit, setLimit] = useState(PAGE);
  const load = () => api.get<PluginDetail>(pluginPath(props.slug)).then(setPlugin).catch(notifyError);
  useEffect(() => {
    load();
  }, [props.slug]);
  const q = query.trim().toLowerCase();
  const icons = (plugin?.icons ?? []).filter((i) => !q || i.name.toLowerCase().includes(q) || i.slug.includes(q));
  return (
    <section aria-labelledby="gallery-title">
      <p>
        <a href="/platform/plugins" onClick={onLinkClick}>
          ← All plugins
        </a>
      </p>
      <div class="page-head">
        <h2 id="gallery-title">{plugin?.name ?? props.slug}</h2>
        {plugin ? <EnableButton plugin={plugin} onChanged={load} /> : null}
      </div>
      {plugin ? (
        <p class="muted">
          Version {plugin.version}, {plugin.icon_count} icons, {plugin.enabled ? "enabled" : "disabled"}.
          {plugin.description ? ` ${plugin.description}` : ""}
        </p>
      ) : null}
      <div class="field search-field">
        <label for="icon-search">Search icons</label>
        <input
          id="icon-search"
          type="search"
          value={query}
          onInput={(e) => {
            setQuery(e.currentTarget.value);
            setLimit(PAGE);
          }}
        />
      </div>
      <p class="muted" role="status">
        {plugin ? `${icons.length} icon${icons.length === 1 ? "" : "s"}${q ? " match" : ""}` : "Loading icons…"}
      </p>
      <ul class="plugin-gallery" aria-label="Icons">
        {icons.slice(0, limit).map((i) => (
          <li key={i.slug} title={i.slug}>
            <img src={i.url} alt="" width={40} height={40} loading="lazy" />
            <span>{i.name}</span>
          </li>
        ))}
      </ul>
      {icons.length > limit ? (
        <button type="button" onClick={() => setLimit(limit + PAGE)}>
          Show more icons ({icons.length - limit} more)
        </button>
      ) : null}
    </section>
  );
}
