// The game's sounds, made in the browser with the Web Audio API (nothing is fetched): a
// move, a capture, the end of the game and low time. The mute switch is kept in
// localStorage. The audio context starts on the first user gesture (browsers' rule).

const KEY = "damier.mute";

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A short tone: frequency (Hz), length (s), start offset (s), waveform, peak volume. */
function tone(ctx, frequency, length, offset = 0, type = "sine", peak = 0.25) {
  const start = ctx.currentTime + offset;
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(peak, start + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.02);
}

/** A wooden click: a burst of filtered noise. */
function click(ctx, offset = 0, peak = 0.6, pitch = 1800) {
  const start = ctx.currentTime + offset;
  const length = 0.05;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  const gain = ctx.createGain();
  gain.gain.value = peak;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(start);
}

const SOUNDS = {
  move: (ctx) => click(ctx),
  capture: (ctx) => {
    click(ctx, 0, 0.7, 1400);
    click(ctx, 0.07, 0.5, 900);
  },
  end: (ctx) => {
    tone(ctx, 523, 0.25, 0, "triangle");
    tone(ctx, 659, 0.25, 0.15, "triangle");
    tone(ctx, 784, 0.4, 0.3, "triangle");
  },
  low: (ctx) => {
    tone(ctx, 880, 0.12, 0, "square", 0.08);
    tone(ctx, 880, 0.12, 0.2, "square", 0.08);
  },
};

export const sound = {
  get muted() {
    try {
      return localStorage.getItem(KEY) === "1";
    } catch {
      return false;
    }
  },
  set muted(value) {
    try {
      localStorage.setItem(KEY, value ? "1" : "0");
    } catch {
      /* private mode: the switch lasts for the page */
    }
  },
  /** Play "move", "capture", "end" or "low" unless muted. */
  play(kind) {
    if (this.muted || !SOUNDS[kind]) return;
    const ctx = audio();
    if (ctx) SOUNDS[kind](ctx);
  },
};
