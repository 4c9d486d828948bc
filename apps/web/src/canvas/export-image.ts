import { api } from "../api/client.ts";

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const fileName = (name: string, ext: string) => `${name.replace(/[^\p{L}\p{N} _.-]+/gu, "_").trim() || "view"}.${ext}`;

/** The server's SVG of the view, or a PNG drawn from it in the browser (as the spec says: PNG is client-side). */
export async function downloadViewImage(viewId: string, name: string, format: "svg" | "png"): Promise<void> {
  const res = await api.raw("GET", `/api/views/${encodeURIComponent(viewId)}/image?format=svg`);
  const svg = await res.text();
  const svgBlob = new Blob([svg], { type: "image/svg+xml" });
  if (format === "svg") return save(svgBlob, fileName(name, "svg"));
  const url = URL.createObjectURL(svgBlob);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const scale = 2;
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, img.naturalWidth * scale);
    canvas.height = Math.max(1, img.naturalHeight * scale);
    const g = canvas.getContext("2d");
    if (!g) throw new Error("The browser could not draw the PNG.");
    g.scale(scale, scale);
    g.drawImage(img, 0, 0);
    const png = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/png"));
    if (!png) throw new Error("The browser could not draw the PNG.");
    save(png, fileName(name, "png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}
