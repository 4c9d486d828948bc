export { decodeXml } from "./decode.ts";
export * from "./document.ts";
export { type ParseOptions, parseExchange } from "./parse.ts";
export { type SerializeOptions, serializeExchange } from "./serialize.ts";
