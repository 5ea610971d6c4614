// @ts-check
// Where each seat sits around the pile: layout only. The person at the table (or the first seat,
// for someone watching) sits at the bottom, and the others follow in turn order clockwise: up the
// left side, across the top, down the right. The style sheet places each named slot in the board's
// grid (see .board in style.css).

const SLOTS = {
  1: ["B"],
  2: ["B", "T"],
  3: ["B", "TL2", "TR2"],
  4: ["B", "L", "T", "R"],
  5: ["B", "L", "TL2", "TR2", "R"],
  6: ["B", "L", "TL", "T", "TR", "R"],
  7: ["B", "BL", "L", "TL2", "TR2", "R", "BR"],
  8: ["B", "BL", "L", "TL", "T", "TR", "R", "BR"],
};

/** The slot ("B", "L", "TR", ...) of seat `index` of `count`, with seat `bottom` at the bottom. */
export function ringSlot(index, bottom, count) {
  const slots = SLOTS[count] || SLOTS[8];
  return slots[(index - bottom + count) % count] || "T";
}
