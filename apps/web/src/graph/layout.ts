/**
 * A force-directed layout in plain code: nodes start on a spiral, then springs pull related nodes together and a
 * grid-bucketed repulsion keeps near nodes apart (only the 3x3 neighbouring cells are compared, so 1,000 nodes
 * lay out in a few tens of milliseconds instead of the n² of a naive simulation).
 */
export type LayoutNode = { id: string; x: number; y: number };

export function forceLayout(ids: string[], edges: [string, string][], iterations = 60): Map<string, LayoutNode> {
  const nodes = ids.map((id, i) => {
    const a = i * 2.399963; // golden angle
    const r = 30 * Math.sqrt(i + 1);
    return { id, x: r * Math.cos(a), y: r * Math.sin(a), dx: 0, dy: 0 };
  });
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const links = edges
    .map(([a, b]) => [index.get(a), index.get(b)] as const)
    .filter((l): l is readonly [number, number] => l[0] !== undefined && l[1] !== undefined && l[0] !== l[1]);
  const cell = 130;
  const ideal = 150;
  for (let it = 0; it < iterations; it++) {
    const cool = 1 - it / iterations;
    const grid = new Map<string, number[]>();
    nodes.forEach((n, i) => {
      const key = `${Math.floor(n.x / cell)},${Math.floor(n.y / cell)}`;
      const bucket = grid.get(key);
      if (bucket) bucket.push(i);
      else grid.set(key, [i]);
      n.dx = 0;
      n.dy = 0;
    });
    for (const [i, n] of nodes.entries()) {
      const cx = Math.floor(n.x / cell);
      const cy = Math.floor(n.y / cell);
      for (let gx = cx - 1; gx <= cx + 1; gx++)
        for (let gy = cy - 1; gy <= cy + 1; gy++)
          for (const j of grid.get(`${gx},${gy}`) ?? []) {
            const o = nodes[j];
            if (j === i || !o) continue;
            let dx = n.x - o.x;
            let dy = n.y - o.y;
            let d2 = dx * dx + dy * dy;
            if (d2 < 0.01) {
              dx = Math.random() - 0.5;
              dy = Math.random() - 0.5;
              d2 = 0.5;
            }
            const f = (cell * cell) / d2;
            n.dx += dx * f * 0.05;
            n.dy += dy * f * 0.05;
          }
    }
    for (const [a, b] of links) {
      const n = nodes[a];
      const o = nodes[b];
      if (!n || !o) continue;
      const dx = o.x - n.x;
      const dy = o.y - n.y;
      const d = Math.sqrt(dx * dx + dy * dy) || 1;
      const f = ((d - ideal) / d) * 0.1;
      n.dx += dx * f;
      n.dy += dy * f;
      o.dx -= dx * f;
      o.dy -= dy * f;
    }
    const max = 40 * cool + 2;
    for (const n of nodes) {
      // A weak pull to the centre keeps separate components from drifting apart.
      n.dx -= n.x * 0.002;
      n.dy -= n.y * 0.002;
      const len = Math.sqrt(n.dx * n.dx + n.dy * n.dy);
      const s = len > max ? max / len : 1;
      n.x += n.dx * s;
      n.y += n.dy * s;
    }
  }
  return new Map(nodes.map((n) => [n.id, { id: n.id, x: n.x, y: n.y }]));
}
