import type { ImportResult } from "../api/types.ts";

export type ImportWarning = ImportResult["warnings"][number];

/**
 * What an import skipped or adjusted, as the server reported it (where in the file, then what), for the modeler's
 * Import dialog and the new-workspace-from-a-file dialog alike.
 */
export function ImportWarnings(props: { warnings: ImportWarning[] }) {
  const n = props.warnings.length;
  return (
    <>
      <p id="import-warnings-title">
        The model was imported with {n === 1 ? "1 warning" : `${n} warnings`}: these parts of the file were skipped or
        adjusted.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long list scrolls, and keyboard users must reach it to scroll it */}
      <ul class="warning-list" aria-labelledby="import-warnings-title" tabIndex={0}>
        {props.warnings.map((w, i) => (
          <li key={i}>
            <span class="warning-where">{w.path}</span>: {w.message}
          </li>
        ))}
      </ul>
    </>
  );
}
