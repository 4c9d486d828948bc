/**
 * Reads `organization_id` from a request body the gateway has buffered (JSON or a form), leaving the bytes intact
 * for forwarding. Undefined when absent or unreadable: the upstream then validates the body itself.
 */
export async function peekOrganizationId(
  contentType: string | undefined,
  body: ArrayBuffer,
): Promise<string | undefined> {
  const type = (contentType ?? "").toLowerCase();
  try {
    if (type.includes("json")) {
      const value = (JSON.parse(new TextDecoder().decode(body)) as { organization_id?: unknown } | null)
        ?.organization_id;
      return value === undefined || value === null ? undefined : String(value);
    }
    if (type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded")) {
      const form = await new Response(body, { headers: { "content-type": contentType ?? "" } }).formData();
      const value = form.get("organization_id");
      return typeof value === "string" && value !== "" ? value : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
