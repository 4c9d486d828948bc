import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, test } from "vitest";
import { launchChromium } from "./support/browser.ts";

/**
 * The UI's stores (app/store.ts) in Chromium: a component draws what its store holds, also when the store changes
 * between the component's first drawing and the effect in which it subscribes (Preact runs effects after the next
 * frame). The app boots that way: the session requests go out before the first render, and on a busy machine their
 * answers can arrive before that frame; the boot screen then stayed on "Loading…" for good (the Drafts browser test
 * timed out on it after opening a merged draft's modeler, under load). Each page here is a small bundle of the real
 * store.ts with Preact, built by esbuild as the UI is.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const appDir = fileURLToPath(new URL("../src/app/", import.meta.url));

/** A page running `source` (TSX importing ./store.ts and preact) in a fresh context. */
async function pageRunning(source: string): Promise<Page> {
  const { build } = await import("esbuild");
  const out = await build({
    stdin: { contents: source, resolveDir: appDir, loader: "tsx" },
    bundle: true,
    write: false,
    format: "esm",
    target: "es2022",
    platform: "browser",
    jsx: "automatic",
    jsxImportSource: "preact",
    logLevel: "warning",
  });
  const context = await browser.newContext();
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  page.on("pageerror", (e) => {
    throw e;
  });
  await page.setContent('<div id="app"></div>');
  await page.addScriptTag({ type: "module", content: out.outputFiles[0]?.text ?? "" });
  return page;
}

describe("a component shows what its store holds", () => {
  test("a change made after the first drawing and before the component subscribed is shown (the boot's session)", async () => {
    const page = await pageRunning(`
      import { render } from "preact";
      import { createStore, useStore } from "./store.ts";
      const session = createStore<{ profile: { name: string } | undefined }>({ profile: undefined });
      function Boot() {
        const { profile } = useStore(session);
        return profile ? <p>Signed in as {profile.name}</p> : <p>Loading…</p>;
      }
      render(<Boot />, document.getElementById("app")!);
      // The session answered before the first frame: the component has drawn "Loading…", its effect has not run.
      session.set({ profile: { name: "Demo Contributor" } });
    `);
    await page.getByText("Signed in as Demo Contributor").waitFor();
    await page.context().close();
  });

  test("a selection that reads the component's props follows the props it was last drawn with", async () => {
    const page = await pageRunning(`
      import { render } from "preact";
      import { useState } from "preact/hooks";
      import { createStore, useStore } from "./store.ts";
      const names = createStore<Record<string, string>>({ a: "Claims register", b: "Payments" });
      function Name(props: { id: string }) {
        const name = useStore(names, (all) => all[props.id]);
        return <p>Element: {name}</p>;
      }
      function App() {
        const [id, setId] = useState("a");
        return (
          <>
            <button type="button" onClick={() => setId("b")}>Show b</button>
            <button type="button" onClick={() => names.set((all) => ({ ...all, b: "Payments (renamed)" }))}>
              Rename b
            </button>
            <Name id={id} />
          </>
        );
      }
      render(<App />, document.getElementById("app")!);
    `);
    await page.getByText("Element: Claims register").waitFor();
    await page.getByRole("button", { name: "Show b" }).click();
    await page.getByText("Element: Payments").waitFor();
    await page.getByRole("button", { name: "Rename b" }).click();
    await page.getByText("Element: Payments (renamed)").waitFor();
    await page.context().close();
  });
});
