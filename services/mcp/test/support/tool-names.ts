/** SPEC.md "MCP endpoint": exactly these 37 names. */
export const SPEC_TOOLS = [
  "get_model_info",
  "list_element_types",
  "list_elements",
  "get_element",
  "create_element",
  "update_element",
  "delete_element",
  "get_element_relationships",
  "list_relationship_types",
  "list_relationships",
  "get_relationship",
  "create_relationship",
  "update_relationship",
  "delete_relationship",
  "list_views",
  "get_view",
  "create_view",
  "update_view",
  "delete_view",
  "render_view",
  "create_node",
  "update_node",
  "delete_node",
  "create_connection",
  "update_connection",
  "delete_connection",
  "list_property_definitions",
  "get_property_definition",
  "create_property_definition",
  "update_property_definition",
  "delete_property_definition",
  "list_workspaces",
  "activate_workspace",
  "list_viewpoints",
  "export_model",
  "import_model",
  "save_model",
];

/** Issue 23's tools over the change log: history, versions, diff and revert. Called in history-tools.test.ts. */
export const HISTORY_TOOLS = ["get_history", "list_versions", "create_version", "diff_versions", "revert_change"];

/** Issue 25's tools: an assistant's drafts (create, list, changes, submit). Called in draft-tools.test.ts. */
export const DRAFT_TOOLS = ["create_draft", "list_drafts", "get_draft_changes", "submit_draft"];

/** Tools added for assistants (issue 14, and issue 23's history tools): round trips saved, metamodel questions, pictures, other workspaces. */
export const ADDED_TOOLS = [
  "list_metamodel_element_types",
  "get_allowed_relationships",
  "add_to_view",
  "auto_layout_view",
  "create_workspace",
  "get_element_views",
  "get_relationship_views",
  "explore",
  "rebuild_graph",
  "list_dashboards",
  "run_dashboard",
  ...HISTORY_TOOLS,
  "analyze_impact",
  "derive_relationships",
  "plateau_gap",
  "validate_model",
  ...DRAFT_TOOLS,
];

export const ALL_TOOLS = [...SPEC_TOOLS, ...ADDED_TOOLS];

/** The added tools that need a Neo4j: called in graph-tools.test.ts, the others in assistant-tools.test.ts. */
export const GRAPH_TOOLS = ["explore", "rebuild_graph", "list_dashboards", "run_dashboard"];
