/** A node's box on the view (stored positions are absolute, also for nested nodes). */
export type Box = { x: number; y: number; w: number; h: number };

const GAP = 20;
const MARGIN = 20;
/** Room inside a container above its first row of children, for the container's own label. */
const HEADER = 30;
const PADDING = 12;
const MAX_CELLS = 2_000;

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.w + GAP / 2 && b.x < a.x + a.w + GAP / 2 && a.y < b.y + b.h + GAP / 2 && b.y < a.y + a.h + GAP / 2;

/**
 * Where a new node of size w x h goes when its caller gave no position: the first free cell, row by row, that
 * overlaps none of `occupied` — inside `parent` when it is nested (below the parent's label, left to right within
 * its width), otherwise on the view from the top left, five cells a row. `grow` is the parent's new size when the
 * parent had no free cell left and must be enlarged to hold the node (undefined otherwise).
 */
export function placeNode(
  size: { w: number; h: number },
  occupied: readonly Box[],
  parent?: Box,
): { x: number; y: number; grow?: { w: number; h: number } } {
  const originX = parent ? parent.x + PADDING : MARGIN;
  const originY = parent ? parent.y + HEADER : MARGIN;
  const columns = parent ? Math.max(1, Math.floor((parent.w - 2 * PADDING + GAP) / (size.w + GAP))) : 5;
  for (let cell = 0; cell < MAX_CELLS; cell++) {
    const box = {
      x: originX + (cell % columns) * (size.w + GAP),
      y: originY + Math.floor(cell / columns) * (size.h + GAP),
      ...size,
    };
    if (occupied.some((o) => overlaps(box, o))) continue;
    if (!parent) return { x: box.x, y: box.y };
    const right = box.x + box.w + PADDING;
    const bottom = box.y + box.h + PADDING;
    const fits = right <= parent.x + parent.w && bottom <= parent.y + parent.h;
    return fits
      ? { x: box.x, y: box.y }
      : {
          x: box.x,
          y: box.y,
          grow: { w: Math.max(parent.w, right - parent.x), h: Math.max(parent.h, bottom - parent.y) },
        };
  }
  // Every cell taken (thousands of nodes): below everything, which is free by construction.
  const lowest = occupied.reduce((m, o) => Math.max(m, o.y + o.h), originY);
  return { x: originX, y: lowest + GAP };
}
