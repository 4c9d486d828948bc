/**
 * Generates packages/shared/src/metamodel/generated.ts from the ArchiMate 3.1 source tables kept outside the repo
 * (../shared relative to the repo root): Archi 4.9.3's relationship table, its letter legend and viewpoints, the
 * Open Group exchange XSDs (the authoritative type names) and SPEC.md's element list (display names and layers).
 *
 *   ./pnpm gen:metamodel            write generated.ts
 *   ./pnpm gen:metamodel --check    exit 1 when the checked-in file differs from a fresh generation
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const scriptPath = fileURLToPath(import.meta.url);
const repoRoot = resolve(dirname(scriptPath), "../../..");
export const DEFAULT_SHARED_DIR = resolve(repoRoot, "../shared");
export const GENERATED_PATH = resolve(repoRoot, "packages/shared/src/metamodel/generated.ts");
const RELATIONSHIP_CONCEPT = "Relationship";

// Archi models both junction kinds as one concept; the exchange format has two types. A bare "Junction" from a
// user means the default kind, which is "and" in Archi and in the exchange format.
const ARCHI_CONCEPT_EXPANSION: Record<string, readonly string[]> = { Junction: ["AndJunction", "OrJunction"] };
const INPUT_ALIASES: Record<string, string> = { Junction: "AndJunction" };
const ALWAYS_IN_VIEWPOINTS = ["Grouping", "Junction"];
// Archi's viewpoint macros name its layer groups; they coincide with SPEC.md's layers.
const MACRO_LAYERS: Record<string, string> = {
  $BusinessElements$: "Business",
  $ApplicationElements$: "Application",
  $TechnologyElements$: "Technology",
  $PhysicalElements$: "Physical",
  $MotivationElements$: "Motivation",
  $StrategyElements$: "Strategy",
  $ImplementationMigrationElements$: "Implementation",
};

// ---------------------------------------------------------------- minimal XML reader (elements, attributes, text)

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeEntities(text: string, fail: (msg: string) => never): string {
  return text.replace(/&([^;\s]*);/g, (_, ref: string) => {
    if (ref.startsWith("#x")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    const value = ENTITIES[ref];
    if (value === undefined) fail(`unknown entity &${ref};`);
    return value;
  });
}

export function parseXml(source: string, file: string): XmlNode {
  const root: XmlNode = { name: "#document", attrs: {}, children: [], text: "" };
  const stack = [root];
  let pos = 0;
  const fail = (msg: string): never => {
    const line = source.slice(0, pos).split("\n").length;
    throw new Error(`${file}:${line}: ${msg}`);
  };
  const skipPast = (terminator: string) => {
    const end = source.indexOf(terminator, pos);
    if (end < 0) fail(`missing ${terminator}`);
    const body = source.slice(pos, end);
    pos = end + terminator.length;
    return body;
  };
  const tagPattern = /<([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
  const attrPattern = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  while (pos < source.length) {
    const top = stack.at(-1) ?? root;
    if (source[pos] !== "<") {
      const end = source.indexOf("<", pos);
      const raw = source.slice(pos, end < 0 ? source.length : end);
      top.text += decodeEntities(raw, fail);
      pos += raw.length;
    } else if (source.startsWith("<?", pos)) {
      skipPast("?>");
    } else if (source.startsWith("<!--", pos)) {
      skipPast("-->");
    } else if (source.startsWith("<![CDATA[", pos)) {
      pos += "<![CDATA[".length;
      top.text += skipPast("]]>");
    } else if (source.startsWith("<!", pos)) {
      fail("DTDs are not accepted");
    } else if (source.startsWith("</", pos)) {
      pos += 2;
      const name = skipPast(">").trim();
      if (stack.length === 1 || name !== top.name) fail(`unexpected </${name}>`);
      stack.pop();
    } else {
      tagPattern.lastIndex = pos;
      const match = tagPattern.exec(source);
      const [, name = "", attrs = "", selfClosing] = match ?? fail("malformed tag");
      const node: XmlNode = { name, attrs: {}, children: [], text: "" };
      for (const [, key = "", double, single] of attrs.matchAll(attrPattern)) {
        if (key in node.attrs) fail(`duplicate attribute ${key}`);
        node.attrs[key] = decodeEntities(double ?? single ?? "", fail);
      }
      top.children.push(node);
      if (selfClosing !== "/") stack.push(node);
      pos = tagPattern.lastIndex;
    }
  }
  if (stack.length !== 1) fail(`unclosed <${stack.at(-1)?.name}>`);
  const [element] = root.children;
  if (root.text.trim() !== "" || root.children.length !== 1 || !element)
    return fail("expected exactly one root element");
  return element;
}

const localName = (node: XmlNode) => node.name.slice(node.name.indexOf(":") + 1);

function* descendants(node: XmlNode): Generator<XmlNode> {
  for (const child of node.children) {
    yield child;
    yield* descendants(child);
  }
}

function required(node: XmlNode, attr: string, file: string): string {
  const value = node.attrs[attr];
  if (value === undefined) throw new Error(`${file}: <${node.name}> lacks ${attr}`);
  return value;
}

// ---------------------------------------------------------------- sources

interface Sources {
  elementTypes: string[]; // exchange names, XSD order
  relationshipTypes: string[]; // exchange names, XSD order
  viewpointNames: string[]; // XSD ViewpointsEnum
  specLayers: { layer: string; names: string[] }[];
  keys: { letter: string; archiName: string }[];
  table: { source: string; target: string; letters: string }[];
  viewpoints: { archiId: string; name: string; concepts: string[] }[];
}

function readXsdEnums(file: string): Map<string, string[]> {
  const enums = new Map<string, string[]>();
  for (const node of descendants(parseXml(readFileSync(file, "utf8"), file))) {
    if (localName(node) !== "simpleType" || node.attrs.name === undefined) continue;
    const values: string[] = [];
    for (const child of descendants(node)) {
      if (localName(child) === "enumeration") values.push(required(child, "value", file));
      if (localName(child) === "union") values.push(...required(child, "memberTypes", file).split(/\s+/));
    }
    enums.set(node.attrs.name, values);
  }
  return enums;
}

function readSpecLayers(file: string): { layer: string; names: string[] }[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const start = lines.findIndex((line) => line.trim() === "### Element");
  if (start < 0) throw new Error(`${file}: no "### Element" section`);
  const layers: { layer: string; names: string[] }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("#")) break;
    const match = /^- (\w+): (.+)\.$/.exec(line.trim());
    const [, layer, names] = match ?? [];
    if (layer && names) layers.push({ layer, names: names.split(",").map((name) => name.trim()) });
  }
  if (layers.length === 0) throw new Error(`${file}: no layer list under "### Element"`);
  return layers;
}

export function readSources(sharedDir: string): Sources {
  const file = (path: string) => join(sharedDir, path);
  const modelEnums = readXsdEnums(file("archimate/xsd/archimate3_Model.xsd"));
  const viewEnums = readXsdEnums(file("archimate/xsd/archimate3_View.xsd"));
  const enumValues = (enums: Map<string, string[]>, name: string): string[] => {
    const values = enums.get(name);
    if (!values?.length) throw new Error(`XSD has no values for ${name}`);
    return values;
  };
  // ElementEnumType is the union of the element, composite and connector enums: together, the exchange types.
  const elementTypes = [
    ...new Set(enumValues(modelEnums, "ElementEnumType").flatMap((member) => enumValues(modelEnums, member))),
  ];

  const keysFile = file("archimate/metamodel/relationships-keys.xml");
  const keys = [...descendants(parseXml(readFileSync(keysFile, "utf8"), keysFile))]
    .filter((node) => node.name === "key")
    .map((node) => ({ letter: required(node, "char", keysFile), archiName: required(node, "relationship", keysFile) }));

  const tableFile = file("archimate/metamodel/relationships.xml");
  const tableRoot = parseXml(readFileSync(tableFile, "utf8"), tableFile);
  if (tableRoot.name !== "relationships" || tableRoot.attrs.version !== "3.1") {
    throw new Error(`${tableFile}: expected <relationships version="3.1">`);
  }
  const table: Sources["table"] = [];
  for (const source of tableRoot.children) {
    if (source.name !== "source") throw new Error(`${tableFile}: unexpected <${source.name}>`);
    for (const target of source.children) {
      if (target.name !== "target") throw new Error(`${tableFile}: unexpected <${target.name}>`);
      table.push({
        source: required(source, "concept", tableFile),
        target: required(target, "concept", tableFile),
        letters: required(target, "relations", tableFile),
      });
    }
  }

  const viewpointFile = file("archimate/metamodel/viewpoints.xml");
  const viewpoints = parseXml(readFileSync(viewpointFile, "utf8"), viewpointFile).children.map((node) => {
    const names = node.children.filter((child) => child.name === "name");
    const unknown = node.children.find((child) => child.name !== "name" && child.name !== "concept");
    if (node.name !== "viewpoint" || unknown || names.length !== 1) {
      throw new Error(`${viewpointFile}: unexpected content in viewpoint ${node.attrs.id}`);
    }
    return {
      archiId: required(node, "id", viewpointFile),
      name: (names[0]?.text ?? "").trim(),
      concepts: node.children.filter((child) => child.name === "concept").map((child) => child.text.trim()),
    };
  });

  return {
    elementTypes,
    relationshipTypes: enumValues(modelEnums, "RelationshipTypeEnum"),
    viewpointNames: enumValues(viewEnums, "ViewpointsEnum"),
    specLayers: readSpecLayers(file("SPEC.md")),
    keys,
    table,
    viewpoints,
  };
}

// ---------------------------------------------------------------- model

const squash = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");

function camelCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, i) => (i === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1))).join("");
}

export function buildModel(src: Sources) {
  const xsdTypes = new Set(src.elementTypes);
  const specByType = new Map<string, { label: string; layer: string }>();
  for (const { layer, names } of src.specLayers) {
    for (const label of names) {
      const name = src.elementTypes.find((type) => squash(type) === squash(label));
      if (name) specByType.set(name, { label, layer });
      else if (!(label in INPUT_ALIASES)) throw new Error(`SPEC.md type "${label}" is not an exchange type`);
    }
  }
  const elementTypes = src.elementTypes.map((name) => {
    const spec = specByType.get(name);
    if (!spec) throw new Error(`exchange type ${name} is missing from SPEC.md`);
    const archiName = Object.keys(ARCHI_CONCEPT_EXPANSION).find((c) => ARCHI_CONCEPT_EXPANSION[c]?.includes(name));
    return { name, label: spec.label, layer: spec.layer, ...(archiName ? { archiName } : {}) };
  });
  const layers = [...new Set(elementTypes.map((type) => type.layer))];

  const relationshipTypes = src.relationshipTypes.map((name) => {
    const key = src.keys.find((k) => k.archiName === `${name}Relationship`);
    if (key?.letter.length !== 1) throw new Error(`no single-letter key for relationship ${name}`);
    return { name, letter: key.letter, archiName: key.archiName };
  });
  if (src.keys.length !== relationshipTypes.length) throw new Error("relationship legend has unknown entries");
  const knownLetters = new Set(relationshipTypes.map((type) => type.letter));

  const expand = (concept: string): readonly string[] => {
    if (concept === RELATIONSHIP_CONCEPT || xsdTypes.has(concept)) return [concept];
    const expansion = ARCHI_CONCEPT_EXPANSION[concept];
    if (!expansion) throw new Error(`unknown concept ${concept} in the relationship table`);
    return expansion;
  };
  const concepts = [...src.elementTypes, RELATIONSHIP_CONCEPT];
  const table = new Map<string, Map<string, string>>(concepts.map((c) => [c, new Map()]));
  for (const row of src.table) {
    const letters = [...row.letters].sort();
    const bad = letters.find((letter, i) => !knownLetters.has(letter) || letter === letters[i - 1]);
    if (bad) throw new Error(`bad letter "${bad}" for ${row.source} -> ${row.target}`);
    for (const source of expand(row.source)) {
      for (const target of expand(row.target)) {
        const targets = table.get(source)!;
        if (targets.has(target)) throw new Error(`duplicate entry ${source} -> ${target}`);
        targets.set(target, letters.join(""));
      }
    }
  }
  for (const source of concepts) {
    const missing = concepts.find((target) => !table.get(source)!.has(target));
    if (missing) throw new Error(`relationship table lacks ${source} -> ${missing}`);
  }

  const viewpoints = src.viewpoints.map((vp) => {
    // The exchange enum spells some names longer ("Capability Map" for Archi's "Capability").
    const id =
      src.viewpointNames.find((name) => squash(name) === squash(vp.name)) ??
      src.viewpointNames.find((name) => squash(name) === `${squash(vp.name)}map`) ??
      vp.name;
    const allowed = new Set<string>();
    const concepts = vp.concepts.length === 0 ? src.elementTypes : [...vp.concepts, ...ALWAYS_IN_VIEWPOINTS];
    for (const concept of concepts) {
      const layer = MACRO_LAYERS[concept];
      if (concept.startsWith("$") && !layer) throw new Error(`unknown macro ${concept} in viewpoint ${vp.archiId}`);
      const types = layer ? elementTypes.filter((t) => t.layer === layer).map((t) => t.name) : expand(concept);
      for (const type of types) allowed.add(type);
    }
    allowed.delete(RELATIONSHIP_CONCEPT);
    return {
      id,
      key: camelCase(id),
      archiId: vp.archiId,
      name: vp.name,
      allowsAllElementTypes: vp.concepts.length === 0,
      elementTypes: src.elementTypes.filter((type) => allowed.has(type)),
    };
  });

  return { layers, elementTypes, relationshipTypes, table, viewpoints };
}

// ---------------------------------------------------------------- printer (matches the repo's biome format)

const LINE_WIDTH = 120;
const str = (value: string) => JSON.stringify(value);

/** An array inline when the whole line fits, else one item per line, as biome prints it. */
function printArray(items: string[], indent: string, prefix: string, suffix: string): string[] {
  const inline = `${indent}${prefix}[${items.join(", ")}]${suffix}`;
  if (inline.length <= LINE_WIDTH) return [inline];
  return [`${indent}${prefix}[`, ...items.map((item) => `${indent}  ${item},`), `${indent}]${suffix}`];
}

const printFields = (fields: [string, string][]) => `{ ${fields.map(([k, v]) => `${k}: ${v}`).join(", ")} }`;

export function renderModel(model: ReturnType<typeof buildModel>, scriptName: string): string {
  const out: string[] = [
    `// generated by ${scriptName} (./pnpm gen:metamodel), do not edit.`,
    "// Sources (../shared): archimate/metamodel/{relationships,relationships-keys,viewpoints}.xml (Archi 4.9.3,",
    "// ArchiMate 3.1), archimate/xsd/archimate3_{Model,View}.xsd (exchange names), SPEC.md (labels and layers).",
    "",
  ];
  out.push(...printArray(model.layers.map(str), "", "export const LAYER_NAMES = ", " as const;"), "");

  out.push("export const ELEMENT_TYPE_ROWS = [");
  for (const type of model.elementTypes) {
    const fields: [string, string][] = [
      ["name", str(type.name)],
      ["label", str(type.label)],
      ["layer", str(type.layer)],
    ];
    if (type.archiName) fields.push(["archiName", str(type.archiName)]);
    out.push(`  ${printFields(fields)},`);
  }
  out.push("] as const;", "");

  out.push("/** Inputs that are not exchange types but name one (Archi's single junction concept). */");
  out.push("export const ELEMENT_TYPE_ALIASES = {");
  for (const [alias, type] of Object.entries(INPUT_ALIASES)) out.push(`  ${alias}: ${str(type)},`);
  out.push("} as const;", "");

  out.push("export const RELATIONSHIP_TYPE_ROWS = [");
  for (const type of model.relationshipTypes) {
    out.push(`  ${printFields([...Object.entries(type)].map(([k, v]) => [k, str(v)]))},`);
  }
  out.push("] as const;", "");

  out.push(
    `/** Source -> target -> letters of the allowed relationship types; "${RELATIONSHIP_CONCEPT}" is a relationship. */`,
  );
  out.push("export const RELATIONSHIP_TABLE: Readonly<Record<string, Readonly<Record<string, string>>>> = {");
  const concepts = [...model.table.keys()];
  for (const source of concepts) {
    out.push(`  ${source}: {`);
    for (const target of concepts) out.push(`    ${target}: ${str(model.table.get(source)!.get(target)!)},`);
    out.push("  },");
  }
  out.push("};", "");

  out.push("export const VIEWPOINT_ROWS = [");
  for (const vp of model.viewpoints) {
    out.push("  {");
    out.push(`    id: ${str(vp.id)},`, `    key: ${str(vp.key)},`, `    archiId: ${str(vp.archiId)},`);
    out.push(`    name: ${str(vp.name)},`, `    allowsAllElementTypes: ${vp.allowsAllElementTypes},`);
    out.push(...printArray(vp.elementTypes.map(str), "    ", "elementTypes: ", ","));
    out.push("  },");
  }
  out.push("] as const;", "");
  return out.join("\n");
}

export function generateMetamodel(sharedDir: string = DEFAULT_SHARED_DIR): string {
  return renderModel(buildModel(readSources(sharedDir)), relative(repoRoot, scriptPath));
}

function main(args: string[]) {
  const text = generateMetamodel();
  const target = relative(process.cwd(), GENERATED_PATH);
  if (args.includes("--check")) {
    const current = readFileSync(GENERATED_PATH, "utf8");
    if (current !== text) {
      console.error(`${target} is stale: run ./pnpm gen:metamodel`);
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(GENERATED_PATH, text);
  console.log(`wrote ${target}`);
}

if (import.meta.main) main(process.argv.slice(2));
