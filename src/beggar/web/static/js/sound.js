// @ts-check
// A short generated sound for each card (Web Audio; off unless the person turns it on).

export class Sound {
  constructor() {
    this.on = localStorage.getItem("beggar-sound") === "on";
    this.context = null;
  }

  toggle() {
    this.on = !this.on;
    localStorage.setItem("beggar-sound", this.on ? "on" : "off");
    return this.on;
  }

  /** A soft tick for a card; a brighter one for a pay card; a chord when a pile is won, a longer
   * one when the game is. */
  play(kind) {
    if (!this.on) return;
    this.context = this.context || new AudioContext();
    const ctx = this.context;
    const notes = { card: [440], pay: [660], take: [523, 659, 784], win: [523, 659, 784, 1047] }[kind] || [440];
    notes.forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "triangle";
      osc.frequency.value = frequency;
      const start = ctx.currentTime + i * 0.05;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.12);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.13);
    });
  }
}
