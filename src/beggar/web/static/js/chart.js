// The chart of every stack after each trick, with its legend in HTML (it wraps, and stays
// legible on a phone) and an optional cursor for the replay viewer.
import { el } from "./dom.js";

export const SEAT_COLOURS = ["#c0262d", "#1f5fbf", "#b7791f", "#6b3fa0", "#1c7c54", "#d0427f", "#3b3b3b", "#0f8b8d"];
const NS = "http://www.w3.org/2000/svg";
const W = 600, H = 180, L = 40, B = 24, T = 10, R = 10;

function svgNode(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/**
 * Draw `points` (one array of stack sizes per trick) into `svg`, the legend into `legend`.
 * `cursor` (a trick number) draws a vertical line for the replay viewer.
 */
export function drawChart(svg, legend, points, names, cursor = null) {
  svg.replaceChildren();
  legend.replaceChildren();
  if (!points.length) return;
  const total = points[0].reduce((a, b) => a + b, 0) || 1;
  const n = Math.max(1, points.length - 1);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + (1 - v / total) * (H - T - B);
  svg.append(svgNode("path", { d: `M${L},${T} V${H - B} H${W - R}`, stroke: "#555", fill: "none" }));
  const label = (text, tx, ty, anchor = "start") => {
    const t = svgNode("text", { x: tx, y: ty, "font-size": 12, "text-anchor": anchor, fill: "#333" });
    t.textContent = text;
    svg.append(t);
  };
  label(String(total), L - 4, T + 8, "end");
  label("0", L - 4, H - B, "end");
  label(`trick ${points.length - 1}`, W - R, H - 6, "end");
  label("trick 0", L, H - 6);
  const at = cursor === null ? points.length - 1 : Math.min(cursor, points.length - 1);
  names.forEach((name, k) => {
    const colour = SEAT_COLOURS[k % SEAT_COLOURS.length];
    svg.append(svgNode("polyline", {
      points: points.map((p, i) => `${x(i).toFixed(1)},${y(p[k]).toFixed(1)}`).join(" "),
      fill: "none", stroke: colour, "stroke-width": 1.6,
    }));
    const item = el("li");
    const swatch = el("span", "swatch");
    swatch.style.background = colour;
    item.append(swatch, document.createTextNode(`${name}: ${points[at][k]}`));
    legend.append(item);
  });
  if (cursor !== null) {
    svg.append(svgNode("line", { x1: x(at), x2: x(at), y1: T, y2: H - B, stroke: "#111", "stroke-dasharray": "3 3", class: "cursor" }));
  }
}
