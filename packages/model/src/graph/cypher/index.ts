export type * from "./ast.ts";
export { parseReadQuery } from "./parse.ts";
export { printLabel, printScoped, quoteName, quoteString } from "./print.ts";
export { refuse } from "./refusal.ts";
