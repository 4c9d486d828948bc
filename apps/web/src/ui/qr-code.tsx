import { encode } from "uqr";

/**
 * A QR code drawn as SVG in the page (uqr encodes; no markup strings, no image URL): one path of dark modules with
 * the quiet zone the standard asks for, black on white whatever the theme so cameras read it.
 */
export function QrCode(props: { text: string; label: string; size?: number }) {
  const { data, size } = encode(props.text, { ecc: "M", border: 4 });
  let path = "";
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      class="qr-code"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${size} ${size}`}
      width={props.size ?? 200}
      height={props.size ?? 200}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
