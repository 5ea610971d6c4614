// @ts-check
// The WebSocket to the server: messages out, messages in, and coming back after a lost line.
import { siteUrl } from "./dom.js";

export class Connection {
  /**
   * `onMessage(message)` gets every message; `onLost(code)` is called with the close code when the
   * line drops by itself (not when this side closes it): 1012 means the server is restarting.
   */
  constructor(onMessage, onLost) {
    this.onMessage = onMessage;
    this.onLost = onLost;
    this.socket = null;
    this.retry = null;
    this.failures = 0;
    this.tableId = null;
  }

  /**
   * Open a fresh line to the table `tableId` and send `first` as soon as it is up. The id is in
   * the socket's address (`ws/<id>`), so that a proxy in front of several server processes can
   * send everyone at one table to the process that holds it.
   */
  open(first, tableId) {
    this.close();
    this.tableId = tableId;
    const url = siteUrl(`ws/${encodeURIComponent(tableId)}`);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url.href);
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      this.send(first);
    };
    socket.onmessage = (event) => this.onMessage(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (socket === this.socket) {
        this.socket = null;
        this.onLost(event.code);
      }
    };
  }

  /**
   * Try again with `first` (a join with this person's token) after a pause that doubles with each
   * failed try, from about half a second up to about ten, and varies a little: a restarted server
   * is not met by every browser at the same instant.
   */
  reopen(first) {
    clearTimeout(this.retry);
    const pause = Math.min(10000, 500 * 2 ** this.failures) * (0.75 + Math.random() / 2);
    this.failures += 1;
    this.retry = setTimeout(() => this.open(first, this.tableId), pause);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Close the line on purpose (leaving a table): no reconnecting. */
  close() {
    clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
  }
}
