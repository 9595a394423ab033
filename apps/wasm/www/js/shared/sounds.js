// Sounds of online and local play (move, capture, your turn, low time), synthesised with Web Audio
// so no sound files are needed. The mute switch is remembered in this browser (localStorage).

const KEY = "crown-muted";

const TONES = {
  move: [[520, 0.06]],
  capture: [[380, 0.05], [300, 0.08]],
  turn: [[660, 0.07], [880, 0.09]],
  low: [[990, 0.05], [990, 0.05], [990, 0.05]],
};

export class Sounds {
  constructor() {
    this.ctx = null;
    /** Names of the sounds played (muted ones too, marked), newest last: for tests and debugging. */
    this.log = [];
    try {
      this.muted = localStorage.getItem(KEY) === "1";
    } catch (_) {
      this.muted = false;
    }
  }

  setMuted(m) {
    this.muted = m;
    try {
      localStorage.setItem(KEY, m ? "1" : "0");
    } catch (_) {
      /* private mode: for this page only */
    }
  }

  /** Play sound `name` (`move`, `capture`, `turn`, `low`) unless muted. */
  play(name) {
    this.log.push(this.muted ? `${name} (muted)` : name);
    if (this.log.length > 100) this.log.shift();
    if (this.muted || !TONES[name]) return;
    try {
      if (!this.ctx) this.ctx = new (window.AudioContext || window.webkitAudioContext)();
      const ctx = this.ctx;
      let t = ctx.currentTime;
      for (const [freq, dur] of TONES[name]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.frequency.value = freq;
        osc.type = "sine";
        gain.gain.setValueAtTime(0.15, t);
        gain.gain.exponentialRampToValueAtTime(0.001, t + dur);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + dur);
        t += dur + 0.03;
      }
    } catch (_) {
      /* no audio device: stay silent */
    }
  }
}
