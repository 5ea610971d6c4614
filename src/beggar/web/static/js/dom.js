// @ts-check
// Small DOM helpers shared by every view.

/** The element with this id anywhere on the page: only the App, which owns the page's frame,
 * looks things up this way; a component looks inside its own root (`within`). */
export const $ = (id) => document.getElementById(id);

/** A lookup by id inside `root`, so that a component never reaches outside the element it owns. */
export const within = (root) => (id) => root.querySelector(`#${id}`);

/**
 * The address of `path` ("t/k7m2x9qbtf", "ws/k7m2x9qbtf") on this site. The site's root is the
 * page's `<base>`, which the server sets to wherever a reverse proxy mounts it, so no URL is ever
 * built from the host's root.
 */
export const siteUrl = (path) => new URL(path, document.baseURI);

/** A new element with a class name and text. */
export function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** A count as the page writes every number: "8,344". */
export const count = (n) => n.toLocaleString("en");

/** "1 card", "3 cards", "8,344 cards". */
export const plural = (n, word) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** "Ann", "Ann and Bea", "Ann, Bea and Cy". */
export const spokenList = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

/** True when the person asked their system for less motion. */
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Fill a select with `[value, text]` pairs and choose `chosen`. */
export function fillSelect(select, values, chosen) {
  select.replaceChildren();
  for (const [value, text] of values) {
    const option = el("option", "", text);
    option.value = value;
    select.append(option);
  }
  select.value = chosen;
}

/** Copy a link to the clipboard, or select it for the person to copy. */
export async function copy(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
  } catch {
    input.select();
  }
}

/**
 * Show `text` on `button`, one of its `labels`: all of them are laid in one place and the others
 * hidden, so that the button keeps the width of the widest and nothing beside it moves.
 */
export function sayOneOf(button, labels, text) {
  const key = labels.join("|");
  if (button.dataset.labels !== key) {
    button.dataset.labels = key;
    button.classList.add("labels");
    button.replaceChildren(...labels.map((words) => el("span", "", words)));
  }
  for (const span of button.children) span.classList.toggle("off", span.textContent !== text);
}
