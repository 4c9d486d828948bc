import {
  allowedRelationships,
  ELEMENT_TYPES,
  LAYERS,
  RELATIONSHIP_CONCEPT,
  RELATIONSHIP_TYPES,
  resolveElementType,
  resolveRelationshipType,
  VIEWPOINTS,
} from "@ams/shared";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack } from "./support/stack.ts";

let stack: Stack;
let client: Client;
beforeAll(async () => {
  stack = await startStack();
  // A viewer: prompts and resources are reading material for every role.
  const user = await stack.signIn("user");
  client = await stack.mcpClient((await stack.apiToken(user)).token);
});
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

const promptText = async (name: string, args?: Record<string, string>) => {
  const { messages } = await client.getPrompt({ name, arguments: args });
  return messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
};

describe("prompts", () => {
  test("exactly the two prompts, create-viewpoint-view with its viewpoint argument", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["archimate-modeling-guide", "create-viewpoint-view"]);
    const vp = prompts.find((p) => p.name === "create-viewpoint-view")!;
    expect(vp.arguments).toEqual([expect.objectContaining({ name: "viewpoint", required: true })]);
  });

  test("the modeling guide names every layer and element type and the tools of the view workflow", async () => {
    const text = await promptText("archimate-modeling-guide");
    for (const layer of LAYERS) expect(text).toContain(layer);
    for (const type of ELEMENT_TYPES) expect(text).toContain(type.label);
    for (const type of RELATIONSHIP_TYPES) expect(text).toContain(type.name);
    for (const tool of ["create_view", "create_node", "create_relationship", "create_connection", "render_view"])
      expect(text).toContain(tool);
    expect(text).toContain("archimate://relationships");
  });

  test("every relationship pattern the guide teaches is allowed by the metamodel", async () => {
    const text = await promptText("archimate-modeling-guide");
    const chains = [
      ...text.matchAll(/((?:[A-Z][a-z]+ )*[A-Z][a-z]+(?: -[A-Z][a-z]+-> (?:[A-Z][a-z]+ )*[A-Z][a-z]+)+)/g),
    ].map((m) => m[1]!);
    expect(chains.length).toBeGreaterThan(5);
    for (const chain of chains) {
      const parts = chain.split(/ -([A-Za-z]+)-> /);
      for (let i = 0; i + 2 < parts.length; i += 2) {
        const source = resolveElementType(parts[i]!)!;
        const type = resolveRelationshipType(parts[i + 1]!)!;
        const target = resolveElementType(parts[i + 2]!)!;
        expect(source && type && target, chain).toBeTruthy();
        expect(allowedRelationships(source, target), `${parts[i]} -${type}-> ${parts[i + 2]}`).toContain(type);
      }
    }
  });

  test("create-viewpoint-view lists exactly the viewpoint's element types", async () => {
    const viewpoint = VIEWPOINTS.find((v) => v.id === "Application Cooperation")!;
    const text = await promptText("create-viewpoint-view", { viewpoint: "application cooperation" });
    expect(text).toContain(`viewpoint: "Application Cooperation"`);
    for (const type of ELEMENT_TYPES) {
      const listed = text.includes(`(${type.name})`);
      expect(listed, type.name).toBe(viewpoint.elementTypes.includes(type.name));
    }
  });

  test("create-viewpoint-view writes 'an' before a vowel and 'a' before a consonant", async () => {
    const restricting = VIEWPOINTS.filter((v) => !v.allowsAllElementTypes);
    const vowel = restricting.find((v) => /^[AEIOU]/.test(v.name))!;
    const consonant = restricting.find((v) => /^[^AEIOU]/.test(v.name))!;
    expect(await promptText("create-viewpoint-view", { viewpoint: vowel.id })).toContain(
      `element types belong on an ${vowel.name} view:`,
    );
    expect(await promptText("create-viewpoint-view", { viewpoint: consonant.id })).toContain(
      `element types belong on a ${consonant.name} view:`,
    );
  });

  test("an unknown viewpoint is invalid params naming the valid ones; completion suggests names", async () => {
    const err = await client
      .getPrompt({ name: "create-viewpoint-view", arguments: { viewpoint: "Spaceship" } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    expect((err as McpError).message).toContain("Application Cooperation");
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "create-viewpoint-view" },
      argument: { name: "viewpoint", value: "Application" },
    });
    expect(completion.values).toContain("Application Cooperation");
    expect(completion.values.every((v) => v.toLowerCase().includes("application"))).toBe(true);
  });
});

describe("resources", () => {
  const read = async (uri: string) => {
    const { contents } = await client.readResource({ uri });
    expect(contents[0]!.mimeType).toBe("application/json");
    return JSON.parse((contents[0] as { text: string }).text);
  };

  test("exactly the two resources", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(["archimate://layers", "archimate://relationships"]);
  });

  test("archimate://layers holds every layer with its element types", async () => {
    const { layers } = await read("archimate://layers");
    expect(layers.map((l: { name: string }) => l.name)).toEqual([...LAYERS]);
    const listed = layers.flatMap((l: { name: string; element_types: { name: string }[] }) =>
      l.element_types.map((t) => `${l.name}/${t.name}`),
    );
    expect(listed.sort()).toEqual(ELEMENT_TYPES.map((t) => `${t.layer}/${t.name}`).sort());
  });

  test("archimate://relationships holds the full validity table of the metamodel", async () => {
    const doc = await read("archimate://relationships");
    expect(doc.relationship_types.map((t: { name: string }) => t.name)).toEqual(RELATIONSHIP_TYPES.map((t) => t.name));
    const concepts = [...ELEMENT_TYPES.map((t) => t.name), RELATIONSHIP_CONCEPT] as const;
    for (const source of concepts) {
      for (const target of concepts) {
        const expected = allowedRelationships(source, target);
        expect(doc.allowed[source]?.[target] ?? [], `${source} -> ${target}`).toEqual(
          expected.length ? [...expected] : [],
        );
      }
    }
    expect(doc.allowed.ApplicationComponent.ApplicationService).toContain("Realization");
  });
});
