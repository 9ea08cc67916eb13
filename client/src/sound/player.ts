/**
 * The one audio output of the page. Mobile browsers start audio only from a
 * user gesture, so no AudioContext exists until the first tap: that tap
 * creates (or resumes) it and plays the near-silent unlock sound inside the
 * gesture. While sound is off nothing is created at all. Volume and the
 * on/off switch come from settings and apply at once.
 *
 * Korean call-outs for poker bets (다이, 콜, 따당, 하프…) use the device's own
 * speech synthesiser (Web Speech API) with a Korean voice when it has one —
 * synthesised on the device, nothing shipped. (espeak-ng could render files at
 * build time, but its Korean voice is hard to understand and it would add a
 * GPL build tool for a few words; the device voices are far better.)
 */
import { getSettings, onSettings, type Settings } from '../settings.ts';
import { playRecipe, type Effect } from './synth.ts';

export interface SoundState {
  /** 'none' until the first tap with sound on; then the AudioContext's own state. */
  context: 'none' | AudioContextState;
  /** Effects started so far, newest last (the test hook reads it). */
  played: Effect[];
  spoken: string[];
}

class SoundPlayer {
  private ctx: AudioContext | null = null;
  private master: GainNode | null = null;
  private installed = false;
  readonly played: Effect[] = [];
  readonly spoken: string[] = [];

  /** Listens for the first gesture; later gestures resume a context the system suspended. */
  install(): void {
    if (this.installed || typeof document === 'undefined') return;
    this.installed = true;
    const onGesture = () => this.unlock();
    for (const type of ['pointerdown', 'touchend', 'keydown'])
      document.addEventListener(type, onGesture, { capture: true, passive: true });
    onSettings((s) => this.apply(s));
  }

  private unlock(): void {
    const s = getSettings();
    if (!s.sound) return;
    const Ctx =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    if (!this.ctx) {
      this.ctx = new Ctx();
      this.master = this.ctx.createGain();
      this.master.connect(this.ctx.destination);
      this.apply(s);
      this.play('unlock');
    }
    if (this.ctx.state === 'suspended') void this.ctx.resume();
  }

  private apply(s: Settings): void {
    if (!this.ctx || !this.master) return;
    this.master.gain.value = s.sound ? s.volume : 0;
    if (!s.sound && this.ctx.state === 'running') void this.ctx.suspend();
  }

  play(effect: Effect): void {
    const s = getSettings();
    if (!s.sound || !this.ctx || !this.master || this.ctx.state === 'closed') return;
    if (this.played.length >= 200) this.played.shift();
    this.played.push(effect);
    playRecipe(this.ctx, this.master, effect);
  }

  /** A Korean call-out, when enabled and the device has a Korean voice. */
  speak(text: string): void {
    const s = getSettings();
    if (!s.sound || !s.voice || !this.ctx || typeof speechSynthesis === 'undefined') return;
    const voice = speechSynthesis.getVoices().find((v) => v.lang.toLowerCase().startsWith('ko'));
    if (!voice) return;
    const u = new SpeechSynthesisUtterance(text);
    u.voice = voice;
    u.lang = voice.lang;
    u.volume = s.volume;
    u.rate = 1.15;
    speechSynthesis.cancel();
    speechSynthesis.speak(u);
    this.spoken.push(text);
  }

  state(): SoundState {
    return { context: this.ctx ? this.ctx.state : 'none', played: [...this.played], spoken: [...this.spoken] };
  }
}

export const sound = new SoundPlayer();
