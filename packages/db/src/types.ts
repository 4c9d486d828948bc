/** JSON column shapes shared by the schema, the model verbs and the exchange format. */

/** A string in one language; `lang` is the xml:lang of the source, null when it had none. */
export type LangString = { lang: string | null; value: string };

/**
 * Every language of a multilingual field, kept only when the source had more than one value or a language tag.
 * The plain column (name, documentation, label, value) always holds the first value.
 */
export type I18n = {
  name?: LangString[];
  documentation?: LangString[];
  label?: LangString[];
  value?: LangString[];
};

export type Rgba = { r: number; g: number; b: number; a?: number };

export type FontStyle = {
  name?: string;
  size?: number;
  /** Space-separated: plain, bold, italic, underline, strikethrough. */
  style?: string;
  color?: Rgba;
};

export type NodeStyle = {
  fill?: Rgba;
  line?: Rgba;
  font?: FontStyle;
  lineWidth?: number;
  /** Exchange-format details kept for round-trips: the views a node links to, a Label's conceptRef/xpathPart. */
  viewRefs?: string[];
  conceptRef?: string;
  xpathPart?: string;
};
export type ConnectionStyle = {
  line?: Rgba;
  font?: FontStyle;
  lineWidth?: number;
  viewRefs?: string[];
  sourceAttachment?: Bendpoint;
  targetAttachment?: Bendpoint;
  /** xsi:type="NestingRelationship": the relationship is shown by nesting rather than drawn. */
  nesting?: boolean;
};

export type Bendpoint = { x: number; y: number };

/** One Dublin Core (or other) metadata entry of the model, in source order. */
export type MetadataEntry = { name: string; value: string; lang?: string | null };

export type ModelInfo = {
  identifier?: string;
  name?: string;
  documentation?: string;
  version?: string;
  i18n?: I18n;
  metadata?: { schema?: string; schemaversion?: string; entries: MetadataEntry[] };
};
