// @ts-check
// Small sound effects, made on the spot with the Web Audio API (no audio files), played only
// when the `sound` setting is on (off by default). Browsers let a page make sound only after
// the player touched it, so the audio context is made on an input (any press or key on the
// page: a race's Ready button too), never at load, where Chromium would refuse it and say so
// in the console.
import { settings } from "./settings.js";

let context = null;

/** Call from an input handler: makes (or wakes) the audio context when sound is on. */
export function unlockSound() {
  if (!settings.get("sound")) return;
  // Safari before 14.1 names it webkitAudioContext.
  const AudioContext = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
  if (!AudioContext) return;
  context ??= new AudioContext();
  if (context.state === "suspended") context.resume();
}

document.addEventListener("pointerdown", unlockSound, { capture: true });
document.addEventListener("keydown", unlockSound, { capture: true });

/** A short tone: frequency in Hz, from `at` seconds from now, `length` seconds long. */
function tone(frequency, { at = 0, length = 0.06, type = "square", volume = 0.08 } = {}) {
  const start = context.currentTime + at;
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.02);
}

/** A burst of noise through a closing low-pass filter: the explosion. */
function boom() {
  const length = 0.6;
  const buffer = context.createBuffer(1, Math.floor(context.sampleRate * length), context.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.random() * 2 - 1;
  const source = context.createBufferSource();
  source.buffer = buffer;
  const filter = context.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.setValueAtTime(1800, context.currentTime);
  filter.frequency.exponentialRampToValueAtTime(80, context.currentTime + length);
  const gain = context.createGain();
  gain.gain.setValueAtTime(0.35, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + length);
  source.connect(filter).connect(gain).connect(context.destination);
  source.start();
}

const EFFECTS = {
  reveal: () => tone(880, { length: 0.04, type: "triangle", volume: 0.12 }),
  flag: () => tone(520, { length: 0.05 }),
  unflag: () => tone(390, { length: 0.05 }),
  start: () => tone(660, { length: 0.12, type: "sine", volume: 0.15 }),
  lose: boom,
  win: () =>
    [523, 659, 784, 1047].forEach((frequency, index) =>
      tone(frequency, { at: index * 0.09, length: 0.14, type: "triangle", volume: 0.12 }),
    ),
};

/** Play an effect (reveal, flag, unflag, start, lose, win) if sound is on and allowed. */
export function playSound(name) {
  if (!settings.get("sound") || !context || context.state === "closed") return;
  EFFECTS[name]?.();
}

/** The sound of the player's own `cells`: a flag placed or taken, cells opened (a mine: none;
 * the end's sound comes with `finished`). */
export function playCellsSound(cells) {
  if (!cells?.length || cells.some(([, , value]) => value === "X")) return;
  if (cells.some(([, , value]) => value === "F")) playSound("flag");
  else if (cells.every(([, , value]) => value === "H")) playSound("unflag");
  else playSound("reveal");
}
