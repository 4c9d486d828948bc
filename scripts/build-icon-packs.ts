// Builds the three built-in icon-pack plugins under plugins/ from icon sets published on the npm registry.
//
//   ./pnpm exec node scripts/build-icon-packs.ts            (re)generate plugins/<pack>/{plugin.json,LICENSE,icons/}
//   ./pnpm exec node scripts/build-icon-packs.ts --check    regenerate in memory, fail if plugins/ differs or is stale
//
// Each source is a pinned package version fetched with `npm pack` into a temporary directory and checked against the
// registry integrity recorded here, so the repository never depends on these packages at build or run time. Every
// icon is passed through the shared sanitizer (packages/shared/src/svg-sanitize.ts) and must come out as a fixed point
// of it. The output is deterministic: running the script twice produces byte-identical files.
//
// Why these sources. The packs fill the three slots named in the spec (282, 638 and 45 icons; originally meant for
// AWS, Azure and Google Cloud). The npm packages that carry the vendors' own service icons (aws-icons, aws-svg-icons,
// aws-icons-directory, react-aws-icons, @threeveloper/azure-react-icons, azure-react-icons, @icongo/ic, the aws-* and
// google-cloud-* entries of @iconify-json/logos) declare MIT, ISC or CC0 for their own packaging, but the artwork
// belongs to the vendors, who license it only for use in architecture diagrams, training material and documentation
// (Microsoft's Azure icon terms reserve every other use; AWS and Google publish comparable use-only terms). A
// third-party package cannot relicense that artwork, and a use-only permission is not a redistribution licence. No
// Google Cloud product icon set is published on npm at all. So each slot is filled from an openly licensed general
// icon set and named for what it is:
//   - carbon-cloud-icons       282 icons from IBM Carbon icons (@carbon/icons, Apache-2.0)
//   - carbon-cloud-pictograms  638 pictograms from IBM Carbon pictograms (@carbon/pictograms, Apache-2.0)
//   - material-cloud-symbols    45 symbols from Google Material Symbols (@material-symbols/svg-400, Apache-2.0)
// The selection rule of each pack is documented next to its definition below.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sanitizeSvg } from "../packages/shared/src/svg-sanitize.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

interface Source {
  package: string;
  version: string;
  license: string;
  /** dist.integrity of the tarball on the npm registry. */
  integrity: string;
}

interface SelectedIcon {
  /** Name in the source set, used to derive the slug. */
  sourceName: string;
  /** Human-readable name. */
  name: string;
  /** Path of the SVG inside the extracted package directory. */
  path: string;
}

interface PackDefinition {
  id: string;
  name: string;
  description: string;
  slugPrefix: string;
  count: number;
  source: Source;
  /** Human-readable statement of the selection rule; also written to the LICENSE header. */
  selectionRule: string;
  /** Returns the ordered candidate list; the first `count` are taken. */
  select(packageDir: string): SelectedIcon[];
}

const PLUGIN_VERSION = "1.0.0";

// ---------------------------------------------------------------------------------------------------------------------
// Pack 1: IBM Carbon icons, 282 icons (the "AWS" slot)

interface CarbonIconMeta {
  name: string;
  friendlyName: string;
  assets: { size: number | string; filepath: string }[];
}

interface CarbonIconMetadata {
  icons: CarbonIconMeta[];
  categories: { name: string; subcategories: { name: string; members: string[] }[] }[];
}

/** Carbon metadata subcategories that hold infrastructure, system, technology and data icons. */
const CARBON_ICON_SUBCATEGORIES = ["Systems", "Technology", "Data"];

/**
 * Icons of those subcategories that are not cloud / infrastructure service icons, tested against the lower-cased Carbon
 * icon name. `--` separates a Carbon icon name from its modifiers (`data--base--alt`).
 */
const CARBON_ICON_EXCLUDED: RegExp[] = [
  // IBM products, IBM Z and mainframe specifics
  /(^|-)(ibm|cics|cicsplex|cics-region|db2|zos|z|pcn|sysplex|tsq|slisor|stratus|spyre)(-|$)/,
  /^(bsam-qsam-zedc|classic-batch|coupling-facility|dfsort|logical-partition|terminal--3270|top-|z-hyperlink)/,
  // SysML / UML notation and programming constructs (the ArchiMate type icons cover modelling notation)
  /(^|-)(definition|usage|reference)(-|$)/,
  /^(accept-|assignment-|send-|perform-|assembly|binding|constraint|feature-|redefinition|subclassification)/,
  /^(factor$|succession|subsetting|swimlane|element-picker|property-relationship|shapes|screen-map|run-view-icon|anchor)/,
  /^(box|array|boolean|string-|double-|null-|value--|parameter|if--|try-|for-loop|while-loop|loop--|fork-|join)/,
  /^(merge-node|decision-|package-node|parent-|child-|add--child|add--parent|port--|item--|types?$|type-)/,
  // charts, plots and other data-visualisation glyphs
  /(^|-)(chart|plot|heat-map|palette|sankey|matrix|treemap|diagram|vis|swot|summary|report|tree|table)(-|$)/,
  /^(area-|bland-|calendar--|choropleth|circle|covariate|cross-tab|curved-|horizontal-line|line--|marginal)/,
  /^(nominal|ordinal|stem-|timeline|quadrant|scatter|categorical|data--categorical|column-|virtual-column|row--)/,
  // text analytics, data-science and data-preparation glyphs
  /^(text-|term|phrase-|word-|classifier|character-|hashtag|markdown|naming-|mapping--|transform--(binary|code))/,
  /^(transform--(instructions|language)|partition--|aggregator|calculation|math-|model--|driver-|support-vector)/,
  /^(skill-|target|concept|cost--total|growth|improve-|interactions|enable-|disable-|execution-history|progress-)/,
  /^(presentation-|program--|document-|shadow|show-|emissions-|global-loan|increase-|upstream|downstream)/,
  /^(surrogate--|color-|data-player|share-knowledge|share$|data--(1|2|add|regular|unreal|format|view)|flow--)/,
  /^(subflow|list-tree|data-bin|data-class|data-enrichment--add|data-glossary|data-dictionary|data-quality|decision)/,
  /^(analytics--custom|activity|dependency|channels|create-link|query-queue|schematics|trace|sys-provision)/,
  // consumer devices, media, messaging and office glyphs
  /^(battery|drone|game|airplay|headphones|headset|camera|audio|radio|vehicle|keyboard|calculator|watch|printer)/,
  /^(vintage|desk|building|energy|utility|cookie|equalizer|waveform|voicemail|augmented|aperture|rocket|media)/,
  /^(mobile--|tablet--|kiosk|multiuser|plug|socket|barcode|qr-|sim-|bluetooth|at$|blog|rss|wikis|forum|email--)/,
  /^(mail--|comments|chat--|location--|asset-|asset--(confirm|edit|view)|breaking-|object$|connection-signal)/,
  /^(connection--(receive|send|signal)|signal-|delivery-|development|port-|interface--|usb$|phone--ip|switch$)/,
  /^(gui--|code--hide|fetch-upload$|trigger|extensions|run-|router--voice|mobility--|remote-connection|outage)/,
];

/** Cloud service icons that Carbon files under other subcategories (Operations, App catalogue, File, AI, User, ...). */
const CARBON_ICON_EXTRA = [
  "ai-agent",
  "api",
  "api--key",
  "block-storage",
  "branch",
  "build-tool",
  "catalog",
  "certificate",
  "cloud--auditing",
  "cloud--infra-migration",
  "cloud--logging",
  "cloud--monitoring",
  "cloud-registry",
  "commit",
  "content-delivery-network",
  "continuous-deployment",
  "continuous-integration",
  "dashboard",
  "database--backups",
  "deploy",
  "dns-services",
  "end-to-end--monitoring",
  "event--incident",
  "flow-logs-vpc",
  "folder--shared",
  "machine-learning",
  "machine-learning-model",
  "migrate",
  "notification",
  "object-storage",
  "replicate",
  "repo--source-code",
  "script",
  "search",
  "SQL",
  "test-tool",
  "user",
  "user--admin",
  "user--multiple",
];

function isExcluded(name: string, patterns: RegExp[]): boolean {
  const lower = name.toLowerCase();
  return patterns.some((p) => p.test(lower));
}

const carbonIcons: PackDefinition = {
  id: "carbon-cloud-icons",
  name: "Cloud infrastructure icons (from IBM Carbon)",
  description:
    "282 cloud and infrastructure icons (servers, storage, networking, containers, gateways, security, data) taken " +
    "from IBM's Carbon Design System icon set (@carbon/icons, Apache-2.0). These are not AWS icons: no AWS service " +
    "icon set on the npm registry carries a licence that allows redistribution, so this built-in pack uses an " +
    "openly licensed general set instead.",
  slugPrefix: "carbon-",
  count: 282,
  source: {
    package: "@carbon/icons",
    version: "11.89.0",
    license: "Apache-2.0",
    integrity: "sha512-M54u+J19d+nUSp2mpRqc1Opcsqx/bv5oLLk8ECVwE0PGWmUiUlJkfl6NbWHcA2pOIyvJoEwv686KsCO1Q7RSlQ==",
  },
  selectionRule:
    "Icons listed by the package metadata (metadata.json) under the subcategories Systems, Technology and Data, minus " +
    "IBM product and mainframe icons, SysML/UML notation, charts and data-visualisation glyphs, text-analytics glyphs " +
    "and consumer-device glyphs (patterns CARBON_ICON_EXCLUDED in scripts/build-icon-packs.ts), plus " +
    `${CARBON_ICON_EXTRA.length} named cloud ` +
    "service icons from other subcategories (CARBON_ICON_EXTRA), using the 32 px artwork, sorted by slug; the first " +
    "282 are taken.",
  select(dir) {
    const meta = JSON.parse(readFileSync(join(dir, "metadata.json"), "utf8")) as CarbonIconMetadata;
    const byName = new Map(meta.icons.map((i) => [i.name, i]));
    const names = new Set<string>();
    for (const category of meta.categories) {
      for (const sub of category.subcategories) {
        if (!CARBON_ICON_SUBCATEGORIES.includes(sub.name)) continue;
        for (const m of sub.members) if (!isExcluded(m, CARBON_ICON_EXCLUDED)) names.add(m);
      }
    }
    for (const extra of CARBON_ICON_EXTRA) {
      if (names.has(extra)) throw new Error(`${extra} is listed in CARBON_ICON_EXTRA but already selected`);
      names.add(extra);
    }
    const out: SelectedIcon[] = [];
    for (const name of names) {
      const icon = byName.get(name);
      const asset = icon?.assets.find((a) => a.size === 32);
      if (!icon || !asset) throw new Error(`@carbon/icons has no 32 px icon ${name}`);
      out.push({ sourceName: name, name: icon.friendlyName, path: join("svg", asset.filepath) });
    }
    return out;
  },
};

// ---------------------------------------------------------------------------------------------------------------------
// Pack 2: IBM Carbon pictograms, 638 pictograms (the "Azure" slot)

interface CarbonPictogramMetadata {
  icons: { name: string; friendlyName: string; category: string; assets: { filepath: string }[] }[];
}

/** Carbon pictogram categories (metadata.json `category`) about cloud, infrastructure, data, security and software. */
const CARBON_PICTOGRAM_CATEGORIES = [
  "AI",
  "Action",
  "Blockchain",
  "Cloud",
  "Data analytics",
  "Data storage",
  "Design and development",
  "Device interaction",
  "Electronics",
  "File",
  "Internet of Things",
  "Location",
  "Networking",
  "Quantum",
  "Security",
  "Strategy",
  "Systems",
  "Time",
];

/**
 * Pictograms of those categories that name IBM, Red Hat or third-party products, IBM Cloud region mascots, charts and
 * programming-language logos, tested against the lower-cased pictogram name.
 */
const CARBON_PICTOGRAM_EXCLUDED: RegExp[] = [
  // IBM and Red Hat products, IBM Z specifics
  /(^|-)(ibm|watson|watsonx|cloud-pak|cics|db2|cognos|linuxone|qiskit|bluepages|mas|mqa|hyper-protect|z|os)(-|$)/,
  /(^|-)(red-hat|devices-at-ibm|iot--munich)(-|$)/,
  // third-party products
  /(^|-)(sap|oracle|vmware|docker)(-|$)/,
  // bird mascots of the IBM Cloud regions
  /^(albatross|condor|crossbill|eagle|falcon|flamingo|heron|hummingbird|kookaburra|loon|nighthawk|osprey)$/,
  // statistics glyphs (the chart pictograms stay, for analytics and dashboards)
  /^(curve|box--plot|heat--map|circle--packing|q-q-plot|population--diagram|random--samples)/,
  // programming-language logos
  /(^|-)language(-|$)|^(java|javascript|node-dot-js)/,
  // consumer devices, media, industries and other non-technology pictograms
  /^(washer|air--conditioner|hills|consumer--engagement|real-estate|music|love|crop|paper--clip|headphones)$/,
  /^(microphone|television|telephone|drone|drone--1|camera|mouse|keyboard|printer|radio|team-radio|rocket)$/,
  /^(retail|healthcare|insurance--02|financial--services|neurodiversity|new-financial|redefining-financial)/,
  /^(media-and-entertainment|workday|salesforce-integration|spss|websphere|softlayer|telum|spyre|technology-zone)/,
  /^(windows|windows-hosting|swipe--|magic-wand|presenter|summit|puzzle|americas|asia--|austin--|europe--)/,
  /^(india--|north--america)/,
  // marketing and sales pictograms
  /^(agile--coaching|build--leadership|choose-how-to-get-started|free--trial|start-for-free|reseller-programs)$/,
  /^(small-to-medium-business-smb|start-ups|social--tile)$/,
];

const carbonPictograms: PackDefinition = {
  id: "carbon-cloud-pictograms",
  name: "Cloud and technology pictograms (from IBM Carbon)",
  description:
    "638 cloud, infrastructure, data, security and software pictograms taken from IBM's Carbon Design System " +
    "pictogram set (@carbon/pictograms, Apache-2.0). These are not Azure icons: the Azure architecture icons are " +
    "licensed by Microsoft only for diagrams and documentation, and no Azure icon set on the npm registry carries a " +
    "licence that allows redistribution, so this built-in pack uses an openly licensed general set instead.",
  slugPrefix: "carbon-pictogram-",
  count: 638,
  source: {
    package: "@carbon/pictograms",
    version: "12.82.0",
    license: "Apache-2.0",
    integrity: "sha512-H3FKwJ1S9N5oKSn3NYQOOoh2mVNuT5u2oWHSHAdUKbzAI6YYlI24v83dw0IP2/NA+AoyTglgMggBH8zQ2HAO+A==",
  },
  selectionRule:
    `Pictograms whose package metadata (metadata.json) category is one of ${CARBON_PICTOGRAM_CATEGORIES.join(", ")}, ` +
    "minus pictograms naming IBM, Red Hat or third-party products, IBM Cloud region mascots, statistics glyphs, " +
    "programming-language logos, consumer-device, industry and marketing pictograms (patterns " +
    "CARBON_PICTOGRAM_EXCLUDED in " +
    "scripts/build-icon-packs.ts), sorted by slug; the first 638 are taken.",
  select(dir) {
    const meta = JSON.parse(readFileSync(join(dir, "metadata.json"), "utf8")) as CarbonPictogramMetadata;
    const out: SelectedIcon[] = [];
    for (const icon of meta.icons) {
      if (!CARBON_PICTOGRAM_CATEGORIES.includes(icon.category)) continue;
      if (isExcluded(icon.name, CARBON_PICTOGRAM_EXCLUDED)) continue;
      const asset = icon.assets[0];
      if (!asset) continue;
      out.push({ sourceName: icon.name, name: icon.friendlyName, path: join("svg", asset.filepath) });
    }
    return out;
  },
};

// ---------------------------------------------------------------------------------------------------------------------
// Pack 3: Google Material Symbols, 45 symbols (the "Google Cloud" slot)

/**
 * Material Symbols that stand for cloud and infrastructure concepts, chosen by hand because the set ships no
 * categories: cloud and transfer, compute, storage and databases, networking, APIs and integration, security,
 * operations. Outlined style, weight 400, unfilled.
 */
const MATERIAL_SYMBOLS = [
  "account_tree",
  "analytics",
  "api",
  "backup",
  "cloud",
  "cloud_download",
  "cloud_lock",
  "cloud_sync",
  "cloud_upload",
  "code",
  "computer",
  "data_object",
  "database",
  "database_search",
  "dataset",
  "deployed_code",
  "desktop_cloud",
  "developer_board",
  "device_hub",
  "dns",
  "encrypted",
  "folder_data",
  "function",
  "hard_drive",
  "host",
  "hub",
  "inventory_2",
  "key",
  "lan",
  "layers",
  "memory",
  "monitoring",
  "notifications",
  "policy",
  "public",
  "router",
  "schedule",
  "schema",
  "security",
  "shield",
  "smart_toy",
  "storage",
  "terminal",
  "vpn_lock",
  "webhook",
];

const materialSymbols: PackDefinition = {
  id: "material-cloud-symbols",
  name: "Cloud symbols (from Google Material Symbols)",
  description:
    "45 cloud and infrastructure symbols (cloud, compute, storage, databases, networking, APIs, security, operations) " +
    "taken from Google's Material Symbols (@material-symbols/svg-400, Apache-2.0). These are not Google Cloud product " +
    "icons: no Google Cloud icon set is published on the npm registry under a licence that allows redistribution, so " +
    "this built-in pack uses an openly licensed general set instead.",
  slugPrefix: "material-",
  count: 45,
  source: {
    package: "@material-symbols/svg-400",
    version: "0.48.2",
    license: "Apache-2.0",
    integrity: "sha512-JJXRvRoHhMbrSFQIkiUwjFkCnurH0Yg+cGMCn9xS0PRtLXovIAQCz7NltNn/teQ9VRYmbzZB75Uw6Hx0umu5Bg==",
  },
  selectionRule:
    "A fixed list of 45 symbol names standing for cloud and infrastructure concepts (MATERIAL_SYMBOLS in " +
    "scripts/build-icon-packs.ts), outlined style, unfilled, sorted by slug.",
  select() {
    return MATERIAL_SYMBOLS.map((n) => ({
      sourceName: n,
      name: n.charAt(0).toUpperCase() + n.slice(1).replace(/_/g, " "),
      path: join("outlined", `${n}.svg`),
    }));
  },
};

const PACKS = [carbonIcons, carbonPictograms, materialSymbols];

// ---------------------------------------------------------------------------------------------------------------------
// Build

function toSlug(prefix: string, sourceName: string): string {
  const base = sourceName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${prefix}${base}`;
}

function fetchPackage(source: Source, workDir: string): string {
  const spec = `${source.package}@${source.version}`;
  const out = execFileSync("npm", ["pack", spec, "--pack-destination", workDir, "--loglevel=error"], {
    cwd: workDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  // npm pack prints the tarball name (scope folded into the name: @carbon/icons -> carbon-icons-11.89.0.tgz) last
  const filename = out.trim().split("\n").pop()?.trim();
  if (!filename?.endsWith(".tgz")) throw new Error(`npm pack ${spec} returned no tarball`);
  const file = join(workDir, filename);
  const integrity = `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
  if (integrity !== source.integrity) {
    throw new Error(`${spec}: integrity ${integrity} does not match the pinned ${source.integrity}`);
  }
  const dir = join(workDir, `${source.package.replace(/[@/]/g, "_")}`);
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", file, "-C", dir, "--no-same-owner", "--no-same-permissions"], { stdio: "inherit" });
  return join(dir, "package");
}

function licenseFile(pack: PackDefinition, licenseText: string): string {
  const s = pack.source;
  const paragraphs = [
    pack.name,
    `The icons in this plugin (icons/*.svg) come from the npm package ${s.package}@${s.version}, licensed under ` +
      `${s.license}. Its licence text, as shipped in that package, follows below.`,
    `Selection: ${pack.selectionRule}`,
    "Changes: the SVG files were renamed to the plugin's icon slugs and rewritten by scripts/build-icon-packs.ts " +
      "through sanitizeSvg (packages/shared/src/svg-sanitize.ts): markup outside an allow-list removed, xmlns and " +
      "viewBox ensured, whitespace normalized. The drawings themselves are unchanged.",
    "-".repeat(100),
  ];
  const header = paragraphs.map((p) => wrap(p, 100).join("\n")).join("\n\n");
  return `${header}\n\n${licenseText.replace(/\r\n/g, "\n").replace(/^\n+/, "").trimEnd()}\n`;
}

function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) out.push(current);
  return out;
}

interface BuiltFile {
  path: string;
  content: string;
}

function buildPack(pack: PackDefinition, packageDir: string, usedSlugs: Map<string, string>): BuiltFile[] {
  const candidates = pack
    .select(packageDir)
    .map((icon) => ({ ...icon, slug: toSlug(pack.slugPrefix, icon.sourceName) }));
  candidates.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  for (const [i, icon] of candidates.entries()) {
    const previous = candidates[i - 1];
    if (previous && icon.slug === previous.slug) {
      throw new Error(`${pack.id}: ${previous.sourceName} and ${icon.sourceName} share a slug`);
    }
  }
  if (process.env.ICON_PACKS_DEBUG) {
    console.log(`${pack.id}: ${candidates.length} candidates\n${candidates.map((c) => c.sourceName).join(" ")}`);
  }
  if (candidates.length < pack.count) {
    throw new Error(`${pack.id}: the selection rule yields ${candidates.length} icons, fewer than ${pack.count}`);
  }
  if (candidates.length > pack.count) {
    console.warn(`${pack.id}: ${candidates.length} candidates, keeping the first ${pack.count} by slug`);
  }
  const selected = candidates.slice(0, pack.count);
  const files: BuiltFile[] = [];
  const icons: { slug: string; name: string; file: string }[] = [];
  for (const icon of selected) {
    const owner = usedSlugs.get(icon.slug);
    if (owner) throw new Error(`slug ${icon.slug} of ${pack.id} is already used by ${owner}`);
    usedSlugs.set(icon.slug, pack.id);
    const raw = readFileSync(join(packageDir, icon.path), "utf8");
    const svg = sanitizeSvg(raw);
    if (sanitizeSvg(svg) !== svg) throw new Error(`${pack.id}/${icon.slug}: sanitized SVG is not a fixed point`);
    if (!/<(path|rect|circle|ellipse|line|polyline|polygon|use)\b/.test(svg)) {
      throw new Error(`${pack.id}/${icon.slug}: no shapes left after sanitizing`);
    }
    const file = `icons/${icon.slug}.svg`;
    // written exactly as sanitized (no trailing newline), so that sanitizeSvg(file) === file
    files.push({ path: file, content: svg });
    icons.push({ slug: icon.slug, name: icon.name, file });
  }
  const manifest = {
    id: pack.id,
    name: pack.name,
    version: PLUGIN_VERSION,
    description: pack.description,
    type: "icon-pack",
    source: { package: pack.source.package, version: pack.source.version, license: pack.source.license },
    icons,
  };
  files.push({ path: "plugin.json", content: `${JSON.stringify(manifest, null, 2)}\n` });
  files.push({ path: "LICENSE", content: licenseFile(pack, readFileSync(join(packageDir, "LICENSE"), "utf8")) });
  return files;
}

function writePack(targetDir: string, files: BuiltFile[]): void {
  rmSync(join(targetDir, "icons"), { recursive: true, force: true });
  mkdirSync(join(targetDir, "icons"), { recursive: true });
  for (const f of files) writeFileSync(join(targetDir, f.path), f.content);
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

function main(): void {
  const check = process.argv.includes("--check");
  const workDir = mkdtempSync(join(tmpdir(), "icon-packs-"));
  let failed = false;
  try {
    const usedSlugs = new Map<string, string>();
    for (const pack of PACKS) {
      const packageDir = fetchPackage(pack.source, workDir);
      const files = buildPack(pack, packageDir, usedSlugs);
      const target = join(repoRoot, "plugins", pack.id);
      if (check) {
        const expected = new Map(files.map((f) => [f.path, f.content]));
        const actual = listFiles(target);
        const stale = actual.filter((p) => !expected.has(p));
        const differing = [...expected].filter(
          ([p, c]) => !existsSync(join(target, p)) || readFileSync(join(target, p), "utf8") !== c,
        );
        if (stale.length > 0 || differing.length > 0) {
          failed = true;
          console.error(`${pack.id}: ${differing.length} missing or differing file(s), ${stale.length} stale file(s)`);
        } else {
          console.log(`${pack.id}: up to date (${pack.count} icons)`);
        }
      } else {
        mkdirSync(target, { recursive: true });
        writePack(target, files);
        console.log(`${pack.id}: wrote ${pack.count} icons from ${pack.source.package}@${pack.source.version}`);
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

main();
