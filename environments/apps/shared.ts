import { mulberry32 } from '../../domain/random.js';

/** Phone chrome shared by the launcher and the built-in apps: status bar, base CSS, page shell. */

export const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export const BASE_CSS = `
*{box-sizing:border-box;-webkit-tap-highlight-color:transparent}
html,body{margin:0;padding:0}
[hidden]{display:none!important}
body{font-family:'Liberation Sans','DejaVu Sans',Arial,sans-serif;font-size:16px;color:#1f2328;background:#f4f5f7;
 -webkit-user-select:none;user-select:none;-webkit-touch-callout:none;padding-top:28px}
input{-webkit-user-select:text;user-select:text}
a{color:inherit;text-decoration:none}
button{font:inherit;border:none;background:none;color:inherit;cursor:pointer;padding:0}
.statusbar{position:fixed;top:0;left:0;right:0;height:28px;z-index:50;display:flex;justify-content:space-between;
 align-items:center;padding:0 16px;font-size:15px;font-weight:bold;background:#111;color:#fff}
.statusbar .bat{display:inline-block;width:24px;height:12px;border:2px solid #fff;border-radius:3px;position:relative;vertical-align:middle;margin-left:6px}
.statusbar .bat:after{content:'';position:absolute;left:1px;top:1px;bottom:1px;width:16px;background:#fff}
`;

export function statusBar(): string {
  return `<div class="statusbar"><span>9:41</span><span>LTE&nbsp;&nbsp;100%<span class="bat"></span></span></div>`;
}

/**
 * Hooks the environment provider calls for the hardware keys: `__tfBack()` closes an open overlay and
 * returns true (Android's Back closes dialogs first); `__tfMenu()` toggles the app's overflow menu.
 */
export const HOOKS_JS = `
window.__tfOverlays=[];
window.__tfBack=function(){for(const el of document.querySelectorAll('[data-overlay]')){if(!el.hidden){el.hidden=true;return true}}return false};
window.__tfMenu=function(){const m=document.getElementById('overflow');if(!m)return false;m.hidden=!m.hidden;return true};
`;

export function pageShell(opts: { title: string; css: string; body: string; script?: string; bodyAttrs?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,maximum-scale=1,user-scalable=no">
<title>${esc(opts.title)}</title><style>${BASE_CSS}${opts.css}</style></head>
<body ${opts.bodyAttrs ?? ''}>${statusBar()}${opts.body}
<script>${HOOKS_JS}${opts.script ?? ''}</script></body></html>`;
}

/** Deterministic PRNG (mulberry32). */
export const rng = mulberry32;

export function shuffle<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}

export const WEEKDAY_NAMES: readonly string[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const MONTH_NAMES: readonly string[] = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Day labels of an app whose "today" is the Monday `year`-`month`-`day` (month 0-based): offsets count days from it.
 * `dayLabel` → "Thursday, June 5", `shortDay` → "Thu, Jun 5", `monthShort` → "Jun".
 */
export function dayCalendar(year: number, month: number, day: number) {
  const dateOf = (offset: number): Date => new Date(Date.UTC(year, month, day + offset));
  const weekdayOf = (offset: number): string => WEEKDAY_NAMES[((offset % 7) + 7) % 7] ?? '';
  return {
    dateOf,
    weekdayOf,
    dayLabel: (offset: number): string => {
      const d = dateOf(offset);
      return `${weekdayOf(offset)}, ${MONTH_NAMES[d.getUTCMonth()] ?? ''} ${d.getUTCDate()}`;
    },
    shortDay: (offset: number): string => {
      const d = dateOf(offset);
      return `${weekdayOf(offset).slice(0, 3)}, ${(MONTH_NAMES[d.getUTCMonth()] ?? '').slice(0, 3)} ${d.getUTCDate()}`;
    },
    dayOfMonth: (offset: number): number => dateOf(offset).getUTCDate(),
    monthShort: (offset: number): string => (MONTH_NAMES[dateOf(offset).getUTCMonth()] ?? '').slice(0, 3),
  };
}
