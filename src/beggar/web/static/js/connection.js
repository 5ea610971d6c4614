// The WebSocket to the server: messages out, messages in, and coming back after a lost line.
import { siteUrl } from "./dom.js";

export class Connection {
  /**
   * `onMessage(message)` gets every message; `onLost()` is called when the line drops by itself
   * (not when this side closes it).
   */
  constructor(onMessage, onLost) {
    this.onMessage = onMessage;
    this.onLost = onLost;
    this.socket = null;
    this.retry = null;
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
    socket.onopen = () => this.send(first);
    socket.onmessage = (event) => this.onMessage(JSON.parse(event.data));
    socket.onclose = () => {
      if (socket === this.socket) {
        this.socket = null;
        this.onLost();
      }
    };
  }

  /** Try again in `delay` ms with `first` (a join with this person's token). */
  reopen(first, delay = 1000) {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.open(first, this.tableId), delay);
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
