/**
 * The platform's one name and tagline (issue 15 item 8): the page title, the
 * lobby header, the landing card and the PWA manifest all read them here, so
 * the three games are never again presented as "원카드 온라인".
 */
export const BRAND = {
  /** 마당: the open yard where neighbours gather and play, a card table for all. */
  name: '카드마당',
  tagline: '원카드 · 포커 · 훌라, 친구와 바로 한 판',
  /** The manifest's longer description. */
  description: '원카드, 포커, 훌라를 친구나 처음 만난 사람과 실시간으로 즐기는 카드 게임 마당',
  /** Felt green (theme colour) and the icon's accent. */
  themeColor: '#175c3c',
  backgroundColor: '#0f3d28',
} as const;

/** The page title: name and tagline, as search results and the tab bar show it. */
export const PAGE_TITLE = `${BRAND.name} — 원카드·포커·훌라`;

/** Icon sizes the manifest lists (Android home screen and splash, iOS touch icon). */
export const ICON_SIZES = [192, 512] as const;

/** The web app manifest, served at /manifest.webmanifest by the client server. */
export function webManifest(): Record<string, unknown> {
  return {
    name: BRAND.name,
    short_name: BRAND.name,
    description: BRAND.description,
    lang: 'ko',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: BRAND.themeColor,
    background_color: BRAND.backgroundColor,
    icons: ICON_SIZES.map((s) => ({
      src: `/icons/icon-${s}.png`,
      sizes: `${s}x${s}`,
      type: 'image/png',
      // The design keeps its cards inside the centre 80 %, so launchers may crop it to any shape.
      purpose: 'any maskable',
    })),
  };
}
