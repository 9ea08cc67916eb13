/**
 * Scrollable sheets over the game: the frame every sheet uses (the rules
 * sheets live in rules/), settings, and a confirm dialog. Long text and toggles read better as HTML than on the canvas.
 */
import { getSettings, systemPrefersReducedMotion, updateSettings } from '../settings.ts';
import { el } from './dom.ts';

export function sheet(title: string, body: HTMLElement, testId: string): { root: HTMLElement; close: () => void } {
  const root = el('div', { class: 'sheet-backdrop', 'data-testid': testId });
  const panel = el('div', { class: 'sheet', role: 'dialog', 'aria-label': title });
  const head = el('div', { class: 'sheet-head' }, [el('h2', {}, [title])]);
  const closeBtn = el('button', { class: 'btn secondary', 'data-testid': `${testId}-close` }, ['닫기']);
  head.append(closeBtn);
  panel.append(head, body);
  root.append(panel);
  const close = () => root.remove();
  closeBtn.addEventListener('click', close);
  root.addEventListener('click', (e) => {
    if (e.target === root) close();
  });
  document.body.append(root);
  return { root, close };
}

export function openSettings(onChange: () => void): void {
  const s = getSettings();
  const body = el('div', { class: 'sheet-body settings' });
  const motion = el('select', { 'data-testid': 'setting-motion' }) as HTMLSelectElement;
  const sys = systemPrefersReducedMotion() ? '줄이기' : '켜기';
  for (const [value, label] of [
    ['auto', `기기 설정 따르기 (${sys})`],
    ['on', '애니메이션 줄이기'],
    ['off', '애니메이션 켜기'],
  ] as const) {
    const opt = el('option', { value }, [label]) as HTMLOptionElement;
    if (
      (s.reducedMotion === null && value === 'auto') ||
      (s.reducedMotion === true && value === 'on') ||
      (s.reducedMotion === false && value === 'off')
    )
      opt.selected = true;
    motion.append(opt);
  }
  motion.addEventListener('change', () => {
    updateSettings({ reducedMotion: motion.value === 'auto' ? null : motion.value === 'on' });
    onChange();
  });
  const hints = el('input', { type: 'checkbox', 'data-testid': 'setting-hints' }) as HTMLInputElement;
  hints.checked = s.hints;
  hints.addEventListener('change', () => {
    updateSettings({ hints: hints.checked });
    onChange();
  });
  const soundOn = el('input', { type: 'checkbox', 'data-testid': 'setting-sound' }) as HTMLInputElement;
  soundOn.checked = s.sound;
  soundOn.addEventListener('change', () => updateSettings({ sound: soundOn.checked }));
  const volume = el('input', {
    type: 'range',
    min: '0',
    max: '100',
    'data-testid': 'setting-volume',
  }) as HTMLInputElement;
  volume.value = String(Math.round(s.volume * 100));
  volume.addEventListener('input', () => updateSettings({ volume: Number(volume.value) / 100 }));
  const voice = el('input', { type: 'checkbox', 'data-testid': 'setting-voice' }) as HTMLInputElement;
  voice.checked = s.voice;
  voice.addEventListener('change', () => updateSettings({ voice: voice.checked }));
  const check = (key: 'fourColorDeck' | 'largeText' | 'vibrate', testId: string, label: string): HTMLElement => {
    const box = el('input', { type: 'checkbox', 'data-testid': testId }) as HTMLInputElement;
    box.checked = s[key];
    box.addEventListener('change', () => {
      updateSettings({ [key]: box.checked });
      onChange();
    });
    return el('label', { class: 'field check' }, [box, el('span', {}, [label])]);
  };
  body.append(
    el('label', { class: 'field check' }, [soundOn, el('span', {}, ['소리 켜기'])]),
    check('vibrate', 'setting-vibrate', '내 차례에 진동'),
    check('fourColorDeck', 'setting-four-color', '4색 카드 (♠ 검정 · ◆ 파랑 · ♥ 빨강 · ♣ 초록)'),
    check('largeText', 'setting-large-text', '큰 글씨'),
    el('label', { class: 'field' }, [el('span', {}, ['음량']), volume]),
    el('label', { class: 'field check' }, [voice, el('span', {}, ['포커 베팅 음성 (기기의 한국어 음성)'])]),
    el('label', { class: 'field' }, [el('span', {}, ['애니메이션']), motion]),
    el('label', { class: 'field check' }, [hints, el('span', {}, ['힌트 보기 (낼 수 있는 이유를 알려 줘요)'])]),
  );
  sheet('설정', body, 'settings');
}

export function confirmDialog(message: string, ok: string, onOk: () => void): void {
  const body = el('div', { class: 'sheet-body' }, [el('p', {}, [message])]);
  const { close } = sheet('확인', body, 'confirm');
  const yes = el('button', { class: 'btn danger', 'data-testid': 'confirm-ok' }, [ok]);
  yes.addEventListener('click', () => {
    close();
    onOk();
  });
  body.append(el('div', { class: 'row' }, [yes]));
}
