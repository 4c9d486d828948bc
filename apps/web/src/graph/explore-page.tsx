import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import type { PropertyDefinition, QueryResult, Workspace } from "../api/types.ts";
import { onLinkClick } from "../app/router.ts";
import { activeMembership, canEdit, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { FormError } from "../ui/form.tsx";
import { CypherEditor } from "./cypher-editor.tsx";
import { behindText, isBuilding, queuedGraphQuery } from "./graph-queue.ts";
import { forget, readHistory, remember } from "./history.ts";
import { RebuildGraph } from "./rebuild.tsx";
import { QueryResults } from "./results.tsx";
import { type GraphVocabulary, graphVocabulary } from "./schema.ts";

const EXAMPLE = "MATCH p = (a:Element)-[r]->(b:Element)\nRETURN p\nLIMIT 100";

/** Why the server refused, said for people: write clauses, other workspaces, limits. */
function refusal(err: unknown): string {
  const words = describeError(err);
  if (err instanceof ApiError && err.status === 422) return `The query was refused: ${words}`;
  if (err instanceof ApiError && err.status === 503) return `The graph is not available right now: ${words}`;
  if (err instanceof ApiError && err.status === 429)
    return "Too many graph queries are running; try again in a moment.";
  return words;
}

/** Explore the active workspace's graph with Cypher: editor, results as a picture and a table, history. */
export function ExplorePage() {
  const { profile } = useStore(session);
  const [query, setQuery] = useState(() => readHistory()[0] ?? EXAMPLE);
  const [result, setResult] = useState<QueryResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<string | null>(null);
  const [history, setHistory] = useState(readHistory);
  const [vocabulary, setVocabulary] = useState<GraphVocabulary>(() => graphVocabulary());
  const [workspace, setWorkspace] = useState<Workspace | null>(null);
  const wsId = profile?.active_workspace_id;

  useEffect(() => {
    if (!wsId) return;
    api
      .get<PropertyDefinition[]>("/api/property-definitions")
      .then((defs) => setVocabulary(graphVocabulary(defs.map((d) => d.name))))
      .catch(() => undefined);
    api
      .get<Workspace[]>("/api/workspaces")
      .then((all) => setWorkspace(all.find((w) => w.id === wsId) ?? null))
      .catch(() => undefined);
  }, [wsId]);

  const runs = useRef(0);
  useEffect(
    () => () => {
      runs.current++;
    },
    [],
  );
  /**
   * Runs the query through the browser's graph queue: a graph being built shows how far it is and the query runs
   * when it is ready; a graph behind the model says so, and the query runs again each second until it caught up.
   */
  const run = async () => {
    if (!query.trim()) return;
    const mine = ++runs.current;
    const alive = () => runs.current === mine;
    setBusy(true);
    setError(null);
    setWaiting(null);
    setHistory(remember(query));
    try {
      for (let tries = 0; alive(); tries++) {
        const answer = await queuedGraphQuery(() => api.post<QueryResult>("/api/explore", { query }), {
          alive,
          onWait: (err) => {
            if (alive()) setWaiting(isBuilding(err) ? `${err.message}…` : "Waiting for a free graph query slot…");
          },
        });
        if (!alive()) return;
        setWaiting(null);
        setResult(answer);
        setBusy(false);
        if ((answer.graph?.behind ?? 0) === 0 || tries >= 30) return;
        await new Promise((r) => setTimeout(r, 1000));
      }
    } catch (err) {
      if (!alive()) return;
      setResult(null);
      setError(refusal(err));
    } finally {
      if (alive()) {
        setBusy(false);
        setWaiting(null);
      }
    }
  };
  const behind = behindText(result?.graph);

  if (!activeMembership(profile) || !wsId)
    return (
      <Shell>
        <main class="page narrow" id="main">
          <h1>Explore the graph</h1>
          <p>
            Open a workspace first:{" "}
            <a href="/" onClick={onLinkClick}>
              choose one
            </a>
            ; its graph is what you explore here.
          </p>
        </main>
      </Shell>
    );
  return (
    <Shell>
      <main class="page wide" id="main">
        <div class="page-head">
          <h1>Explore {workspace ? workspace.name : "the graph"}</h1>
          {canEdit(profile) ? <RebuildGraph /> : null}
        </div>
        <p class="muted">
          Read-only Cypher over the active workspace's graph. Ctrl+Space completes labels, relationship types and
          properties; Ctrl+Enter runs. Writes (CREATE, MERGE, SET, DELETE), procedure calls and other workspaces are
          refused.
        </p>
        <div class="explore-grid">
          <div>
            <label for="cypher" class="field-label">
              Cypher query
            </label>
            <CypherEditor id="cypher" value={query} vocabulary={vocabulary} onChange={setQuery} onRun={run} />
            <div class="row-actions">
              <button type="button" class="primary" onClick={run} disabled={busy}>
                Run query
              </button>
            </div>
          </div>
          <div class="history">
            <div class="page-head">
              <h2>History</h2>
              {history.length ? (
                <button
                  type="button"
                  onClick={() => {
                    forget();
                    setHistory([]);
                  }}
                >
                  Clear
                </button>
              ) : null}
            </div>
            {history.length === 0 ? (
              <p class="muted">Queries you run are kept here, in this browser.</p>
            ) : (
              <ul aria-label="Query history">
                {history.map((q) => (
                  <li key={q}>
                    <button type="button" class="history-item" title={q} onClick={() => setQuery(q)}>
                      {q.replace(/\s+/g, " ")}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
        {busy ? (
          <p aria-busy="true" role="status">
            {waiting ?? "Running…"}
          </p>
        ) : null}
        {behind ? (
          <p class="muted" role="status" data-behind>
            {behind}
          </p>
        ) : null}
        <FormError error={error} />
        {result ? <QueryResults result={result} /> : null}
      </main>
    </Shell>
  );
}
