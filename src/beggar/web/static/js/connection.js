// The WebSocket to the server: messages out, messages in, and coming back after a lost line.

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
  }

  /** Open a fresh line and send `first` as soon as it is up. */
  open(first) {
    this.close();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
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
    this.retry = setTimeout(() => this.open(first), delay);
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
