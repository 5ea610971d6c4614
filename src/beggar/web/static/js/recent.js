// @ts-check
// The games this browser saw to their end, newest first, each reopening its replay. They are kept
// in this browser only (localStorage); the server keeps the replays themselves.
import { el, siteUrl, within } from "./dom.js";

const KEY = "beggar-recent";
const MOST = 20;

/** The games remembered, newest first: `{replay, title, sentence, at, seat, earlier}` (`seat`:
 * this person's seat in that game; `earlier`: the replays of the deals of its sitting dealt again
 * before it, if any). */
export function recentGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((game) => game && typeof game.replay === "string") : [];
  } catch {
    return [];
  }
}

/** Remember a finished game (once: a game already listed is moved to the top). */
export function rememberGame(game) {
  const list = recentGames().filter((each) => each.replay !== game.replay);
  list.unshift(game);
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MOST)));
  } catch {
    // A full or forbidden storage: the list is a convenience.
  }
}

const CURRENT = "beggar-current";

/** A game this person went away from without leaving it: `{table, title}`. */
export function setCurrentGame(game) {
  try {
    if (game) localStorage.setItem(CURRENT, JSON.stringify(game));
    else localStorage.removeItem(CURRENT);
  } catch {
    // The link back is a convenience.
  }
}

function currentGame() {
  try {
    const game = JSON.parse(localStorage.getItem(CURRENT) || "null");
    return game && typeof game.table === "string" ? game : null;
  } catch {
    return null;
  }
}

/** The home page's list of recent games, and the way back to a game in progress: of its root
 * (the home page) it owns the #recent and #current-game elements. It reads this browser's
 * storage, not the server's messages. */
export class RecentList {
  constructor(root) {
    this.root = root;
    this.$ = within(root);
  }

  render() {
    const $ = this.$;
    const current = currentGame();
    $("current-game").hidden = !current;
    if (current) {
      $("current-link").href = siteUrl(`t/${current.table}`).href;
      $("current-link").textContent = `Back to your game: ${current.title || "against the computer"}`;
    }
    const games = recentGames();
    $("recent").hidden = !games.length;
    const list = $("recent-list");
    list.replaceChildren();
    for (const game of games) {
      const item = el("li");
      const link = el("a", "", game.title || "A game");
      link.href = siteUrl(`r/${game.replay}`).href;
      const when = new Date(game.at || 0);
      const time = el("time", "hint", when.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }));
      time.dateTime = when.toISOString();
      item.append(link, el("span", "", ` ${game.sentence || ""} `), time);
      list.append(item);
    }
  }
}
