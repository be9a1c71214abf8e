import { esc, pageShell } from './apps/shared.js';

const CSS = `
body{background:linear-gradient(160deg,#364fc7 0%,#5f3dc4 45%,#c2255c 100%);min-height:100vh;color:#fff}
.clock{text-align:center;padding:56px 0 8px;font-size:64px;font-weight:300}
.date{text-align:center;font-size:18px;opacity:.9;margin-bottom:48px}
.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:26px 8px;padding:0 14px}
.app{display:flex;flex-direction:column;align-items:center;gap:8px;font-size:15px;font-weight:bold;text-shadow:0 1px 2px rgba(0,0,0,.5)}
.ic{width:64px;height:64px;border-radius:18px;display:flex;align-items:center;justify-content:center;font-size:32px;font-weight:bold;color:#fff;box-shadow:0 3px 8px rgba(0,0,0,.3);text-shadow:none}
.compact .clock{padding:24px 0 4px;font-size:56px}
.compact .date{margin-bottom:20px}
.compact .grid{gap:16px 8px}
.dense .clock{padding:30px 0 0;font-size:44px}
.dense .date{margin-bottom:12px;font-size:16px}
.dense .grid{gap:10px 8px}
.dense .app{gap:5px;font-size:14px}
.dense .ic{width:54px;height:54px;border-radius:15px;font-size:27px}
.soon{background:#f4f5f7;color:#1f2328;min-height:100vh}
.soon .box{text-align:center;padding:160px 24px}
.soon h1{font-size:28px;margin:18px 0 8px}
.soon .ic{margin:0 auto}
`;

export interface LauncherIcon {
  title: string;
  href: string;
  color: string;
  glyph: string;
}

/**
 * The home screen. Past six rows of icons (more than 24) the clock, date and row gaps are tightened, and past seven
 * (more than 28) the icons and labels are a little smaller too, so that the last row (Weather, Camera, Music) is still
 * on screen without scrolling.
 */
export function launcherPage(icons: readonly LauncherIcon[]): string {
  const rows = Math.ceil(icons.length / 4);
  const apps = icons
    .map((i) => `<a class="app" href="${i.href}" aria-label="${esc(i.title)}"><div class="ic" style="background:${i.color}">${esc(i.glyph)}</div><span>${esc(i.title)}</span></a>`)
    .join('');
  return pageShell({
    title: 'Home',
    css: CSS,
    bodyAttrs: rows > 7 ? 'data-launcher class="dense"' : rows > 6 ? 'data-launcher class="compact"' : 'data-launcher',
    body: `<div class="clock">9:41</div><div class="date">Monday, June 2</div><div class="grid">${apps}</div>`,
  });
}

export function comingSoonPage(icon: LauncherIcon): string {
  return pageShell({
    title: icon.title,
    css: CSS,
    bodyAttrs: 'class="soon" data-app-root',
    body: `<div class="box"><div class="ic" style="background:${icon.color}">${esc(icon.glyph)}</div><h1>${esc(icon.title)}</h1><p style="font-size:18px">Coming soon</p></div>`,
  });
}
