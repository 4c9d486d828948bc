/** Constants of the Open Group exchange format (ArchiMate 3.1 schemas, namespace .../archimate/3.0/). */

export const ARCHIMATE_NS = "http://www.opengroup.org/xsd/archimate/3.0/";
/** The 2.x exchange namespace (with or without a trailing slash). */
export const ARCHIMATE_2_NS = new Set([
  "http://www.opengroup.org/xsd/archimate",
  "http://www.opengroup.org/xsd/archimate/",
]);
export const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";
export const DC_NS = "http://purl.org/dc/elements/1.1/";

export const SCHEMA_LOCATION = `${ARCHIMATE_NS} http://www.opengroup.org/xsd/archimate/3.1/archimate3_Diagram.xsd`;
export const DC_SCHEMA_LOCATION = `${DC_NS} http://dublincore.org/schemas/xmls/qdc/2008/02/11/dc.xsd`;

/** The 15 Dublin Core elements: model metadata is validated strictly, so only these can be written. */
export const DC_ELEMENTS: ReadonlySet<string> = new Set([
  "title",
  "creator",
  "subject",
  "description",
  "publisher",
  "contributor",
  "date",
  "type",
  "format",
  "identifier",
  "source",
  "language",
  "relation",
  "coverage",
  "rights",
]);

/** XSD DataType of a property definition. */
export const DATA_TYPES: ReadonlySet<string> = new Set(["string", "boolean", "currency", "date", "time", "number"]);

export const ACCESS_TYPES: readonly string[] = ["Access", "Read", "Write", "ReadWrite"];

/** Element types derived from the XSD's ElementType rather than RealElementType: a name is optional. */
export const NAME_OPTIONAL_TYPES: ReadonlySet<string> = new Set(["AndJunction", "OrJunction", "Grouping", "Location"]);

export const FONT_STYLES: ReadonlySet<string> = new Set(["plain", "bold", "italic", "underline"]);

// XML NCName (xs:ID): a name without ':' that does not start with a digit, '-' or '.'.
const NCNAME =
  /^[A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}][A-Z_a-z0-9.\-\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}]*$/u;
const SIMPLE_NCNAME = /^[A-Za-z_][\w.-]*$/;

export function isNcName(value: string): boolean {
  return SIMPLE_NCNAME.test(value) || NCNAME.test(value);
}
