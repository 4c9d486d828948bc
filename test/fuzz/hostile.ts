import fc from "fast-check";

/** Strings an attacker or a clumsy client sends: injections for every language we speak, control characters,
 * broken Unicode, sizes around our limits, and identifiers that exist somewhere else. */
export function hostileString(knownIds: readonly string[]): fc.Arbitrary<string> {
  const fixed = fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "'; drop table elements; --",
    "' or '1'='1",
    "$1",
    "\\",
    '") RETURN 1 //',
    "MATCH (n) DETACH DELETE n",
    "}]->(x) CREATE (y)",
    "<script>alert(1)</script>",
    "<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>",
    "../../../../etc/passwd",
    "%00",
    "%2e%2e%2f",
    "\uD800",
    "\uDFFF\uD800",
    "😀".repeat(600),
    "\u202Egnp.exe",
    "x".repeat(201),
    "x".repeat(10_001),
    "null",
    "__proto__",
    "constructor",
    "NaN",
    "-1",
    "1e309",
    "id-00000000-0000-0000-0000-000000000000",
  );
  const ids = knownIds.length > 0 ? fc.constantFrom(...knownIds) : fixed;
  return fc.oneof(
    { weight: 4, arbitrary: fixed },
    { weight: 3, arbitrary: ids },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
}

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
};

const hostileNumber = fc.constantFrom(0, -1, 1, 0.5, -0, 2 ** 31, -(2 ** 53), 1e308, Number.MAX_SAFE_INTEGER, 65_536);

/**
 * Values shaped by a route's published JSON schema (so they reach past the validation into the verbs), with hostile
 * strings and numbers in every leaf, and now and then a value of the wrong shape altogether.
 */
export function fromSchema(
  schema: Schema | undefined,
  components: Record<string, Schema>,
  str: fc.Arbitrary<string>,
  depth = 0,
): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(fc.constant(null), hostileNumber, str, fc.constant([]), fc.constant({}), fc.boolean());
  if (!schema || depth > 6) return wrong;
  if (schema.$ref) return fromSchema(components[schema.$ref.split("/").pop() ?? ""], components, str, depth + 1);
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants && variants.length > 0)
    return fc.oneof(...variants.map((v) => fromSchema(v, components, str, depth + 1)));
  let shaped: fc.Arbitrary<unknown>;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (schema.enum && schema.enum.length > 0) shaped = fc.oneof(fc.constantFrom(...schema.enum), str);
  else if (schema.const !== undefined) shaped = fc.constant(schema.const);
  else if (type === "object" || schema.properties) {
    const props = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, child] of Object.entries(props)) record[key] = fromSchema(child, components, str, depth + 1);
    const requiredKeys = Object.keys(props).filter((k) => required.has(k));
    shaped = fc.record(record, { requiredKeys });
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      const extra = fc.dictionary(str, fromSchema(schema.additionalProperties, components, str, depth + 1), {
        maxKeys: 3,
      });
      shaped = fc.tuple(shaped, extra).map(([a, b]) => ({ ...b, ...(a as object) }));
    }
  } else if (type === "array")
    shaped = fc.array(fromSchema(schema.items, components, str, depth + 1), { maxLength: 3 });
  else if (type === "string") shaped = str;
  else if (type === "integer" || type === "number") shaped = hostileNumber;
  else if (type === "boolean") shaped = fc.boolean();
  else shaped = wrong;
  return fc.oneof({ weight: 9, arbitrary: shaped }, { weight: 1, arbitrary: wrong });
}
