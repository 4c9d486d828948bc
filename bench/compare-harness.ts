import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";
import { harnessParent } from "./compare-tree.ts";

/**
 * Preloaded (`node --import`) by `pnpm bench:compare` into every suite it runs in a ref's tree with this checkout's
 * bench files copied over the ref's; BENCH_HARNESS names this checkout. An import those files make that the ref
 * cannot resolve is tried once more as from this checkout, where harnessParent allows it (third-party packages of the
 * harness, never the product's own code).
 */
const tree = fileURLToPath(new URL("..", import.meta.url));
const harness = process.env.BENCH_HARNESS;
if (harness) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (err) {
        const missing = (err as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND";
        const parentURL = missing ? harnessParent(specifier, context.parentURL, tree, harness) : undefined;
        if (!parentURL) throw err;
        return nextResolve(specifier, { ...context, parentURL });
      }
    },
  });
}
