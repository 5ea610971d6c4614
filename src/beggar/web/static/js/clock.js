// @ts-check
// A timed table's clock: the time left, counted down between the server's states.

export class Clock {
  /** @param {HTMLElement} box - the clock's element (a timer) */
  constructor(box) {
    this.box = box;
    /** @type {number | null} */
    this.left = null;
    this.at = 0;
    this.running = false;
    setInterval(() => this.tick(), 500);
  }

  /**
   * The server's time left (seconds; null: no time limit), counting down when `running`.
   * @param {number | null} left
   * @param {boolean} running
   */
  set(left, running) {
    this.left = left;
    this.at = performance.now();
    this.running = running;
    this.tick();
  }

  tick() {
    const { box, left, at, running } = this;
    box.hidden = left === null;
    if (left === null) return;
    const remaining = Math.max(0, left - (running ? (performance.now() - at) / 1000 : 0));
    const minutes = Math.floor(remaining / 60);
    const seconds = Math.floor(remaining % 60);
    box.textContent = `${minutes}:${String(seconds).padStart(2, "0")}`;
    box.setAttribute("aria-label", `Time left: ${minutes} minutes ${seconds} seconds`);
    box.classList.toggle("low", remaining < 60);
  }
}
