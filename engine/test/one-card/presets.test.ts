/**
 * §2 옵션 프리셋 (issue 41): every 원카드 preset is a set of §2 options the server accepts,
 * the presets differ from each other, their ids are the client's contract, and each is
 * documented by name in docs/games/one-card.md. Also the preset reading the form and the
 * rules-in-force list share (core/presets.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { optionFields, optionsSchema } from '../../src/games/one-card/options.ts';
import { presets } from '../../src/games/one-card/presets.ts';
import { closestPreset, presetLabel, presetValues } from '../../src/core/presets.ts';

const doc = readFileSync(new URL('../../../docs/games/one-card.md', import.meta.url), 'utf8');
const byId = (id: string) => presets.find((p) => p.id === id)!;
/** Parsed options as the plain record the lobby sends. */
const plain = (o: object): Record<string, unknown> => Object.fromEntries(Object.entries(o));

describe('§2 원카드 프리셋', () => {
  it('offers the four named sets under the ids the room form relies on', () => {
    expect(presets.map((p) => p.id)).toEqual(['basic', 'house', 'colorOriginal', 'beginner']);
    expect(presets.map((p) => p.name)).toEqual(['기본', '학교/MT 하우스 룰', '색깔 카드 원작 규칙', '초보용']);
    expect(oneCard.presets).toBe(presets);
  });

  it.each(presets.map((p) => [p.id, p] as const))('%s passes the options schema as given and filled in', (_, p) => {
    expect(optionsSchema.safeParse(p.options).success).toBe(true);
    const parsed = optionsSchema.parse(presetValues(optionFields, p));
    // The schema keeps every value the preset sets (nothing silently replaced by a default).
    for (const [k, v] of Object.entries(p.options)) expect(parsed[k as keyof typeof parsed]).toEqual(v);
  });

  it('sets only keys the form knows, each to a value the field offers', () => {
    for (const p of presets) {
      for (const [k, v] of Object.entries(p.options)) {
        const f = optionFields.find((x) => x.key === k);
        expect(f, `${p.id}.${k}`).toBeDefined();
        if (f!.kind === 'choice') expect(f!.choices!.map((c) => c.value)).toContainEqual(v);
        if (f!.kind === 'integer') expect(v).toBeGreaterThanOrEqual(f!.min!);
        if (f!.kind === 'integer') expect(v).toBeLessThanOrEqual(f!.max!);
      }
    }
  });

  it('are pairwise distinct once defaults are filled in', () => {
    const seen = new Set(presets.map((p) => JSON.stringify(presetValues(optionFields, p))));
    expect(seen.size).toBe(presets.length);
    // 기본 is the defaults themselves: the schema's output for an empty classic form.
    expect(presetValues(optionFields, byId('basic'))).toEqual(
      Object.fromEntries(
        Object.entries(optionsSchema.parse({ mode: 'classic' })).filter(([k]) =>
          Object.keys(presetValues(optionFields, byId('basic'))).includes(k),
        ),
      ),
    );
  });

  it('each preset is named and described in the 원카드 doc', () => {
    for (const p of presets) {
      expect(doc, p.name).toContain(`**${p.name}**`);
      expect(doc, p.id).toContain(`\`${p.id}\``);
      // Every option the preset sets is named in the doc.
      for (const k of Object.keys(p.options)) if (k !== 'mode') expect(doc, `${p.id}.${k}`).toContain(`\`${k}\``);
    }
  });

  it('names the closest preset and counts the options changed from it', () => {
    const house = presetValues(optionFields, byId('house'));
    expect(presetLabel(closestPreset(optionFields, presets, house), optionFields, 'classic')).toBe('학교/MT 하우스 룰');
    const changed = { ...house, turnSeconds: 30 };
    const m = closestPreset(optionFields, presets, changed);
    expect(m?.preset.id).toBe('house');
    expect(m?.changed).toEqual(['turnSeconds']);
    expect(presetLabel(m, optionFields, 'classic')).toBe('학교/MT 하우스 룰 · 1개 변경됨');
    const uno = plain(optionsSchema.parse({ mode: 'uno-style', unoWild4Rule: 'challenge', unoTargetScore: 500 }));
    expect(closestPreset(optionFields, presets, uno)?.preset.id).toBe('colorOriginal');
    // Far from every preset (more than half of the classic options differ from each): 직접 설정.
    const far = plain(
      optionsSchema.parse({
        mode: 'classic',
        handSize: 6,
        deckCount: 2,
        attack2: 3,
        attackA: 4,
        attackSpadeA: 6,
        attackBlackJoker: 6,
        attackColorJoker: 8,
        threeDefense: 'off',
        kEffect: 'none',
        lastCardRule: 'special',
        oneCardPenalty: 3,
        bankruptLimit: 18,
        voluntaryDraw: false,
        playAfterDraw: true,
        botLevel: 'hard',
        turnSeconds: 15,
      }),
    );
    expect(presetLabel(closestPreset(optionFields, presets, far), optionFields, 'classic')).toBe('직접 설정');
    expect(presetLabel(null, optionFields, 'classic')).toBe('직접 설정');
  });
});
