import { AppError } from "@ams/shared";
import { describe, expect, test } from "vitest";
import { decodeXml, parseExchange } from "../../src/exchange/index.ts";

const model = (name: string, encoding: string) =>
  `<?xml version="1.0" encoding="${encoding}"?>\n<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" identifier="m"><name>${name}</name></model>`;

describe("decodeXml", () => {
  test("honours the encoding of the XML declaration (Sparx EA writes windows-1252)", () => {
    const bytes = Uint8Array.from(model("Caf\u00e9 \u20ac", "windows-1252"), (ch) =>
      ch === "\u20ac" ? 0x80 : ch.charCodeAt(0),
    );
    expect(parseExchange(decodeXml(bytes)).document.model.name).toBe("Café €");
  });

  test("defaults to UTF-8 and understands byte-order marks", () => {
    const utf8 = new TextEncoder().encode(model("Zoë 🏛", "UTF-8"));
    expect(parseExchange(decodeXml(utf8)).document.model.name).toBe("Zoë 🏛");
    const text = `\ufeff${model("Zoë", "UTF-16")}`;
    const utf16 = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      utf16[2 * i] = text.charCodeAt(i) & 0xff;
      utf16[2 * i + 1] = text.charCodeAt(i) >> 8;
    }
    expect(parseExchange(decodeXml(utf16)).document.model.name).toBe("Zoë");
  });

  test("refuses bytes that are not in the declared encoding, and unknown encodings", () => {
    const bad = Uint8Array.from([...new TextEncoder().encode(model("x", "UTF-8").slice(0, 60)), 0xff, 0xfe, 0x41]);
    expect(() => decodeXml(bad)).toThrow(AppError);
    expect(() => decodeXml(new TextEncoder().encode(model("x", "klingon")))).toThrow(/unsupported encoding 'klingon'/);
  });
});
